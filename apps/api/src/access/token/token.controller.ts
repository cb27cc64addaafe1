import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { correlationIdOf } from '@pix/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/auth-context';
import { clientCertificateThumbprint } from '../../auth/client-certificate';
import { IssueTokenHandler } from './issue-token.handler';
import { OAuthError } from './oauth-error';
import { readTokenRequest } from './token-request';

export const TOKEN_PATH = '/oauth/token';

/**
 * POST /oauth/token (outside the API base path, like the contract's tokenUrl). Answers in
 * OAuth2's own JSON (RFC 6749 §5.1/§5.2), not as Pix problems: OAuth client libraries read it.
 */
@Controller('oauth')
export class TokenController {
  constructor(private readonly handler: IssueTokenHandler) {}

  @Public()
  @Post('token')
  @HttpCode(200)
  async token(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    let status = 200;
    let body: object;
    try {
      const tokenRequest = readTokenRequest(request.body, request.headers.authorization);
      body = await this.handler.execute(tokenRequest, clientCertificateThumbprint(request.raw), correlationIdOf(request));
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      status = error.status;
      body = error.body;
      if (status === 401) void reply.header('www-authenticate', 'Basic realm="pix", charset="UTF-8"');
    }
    // RFC 6749 §5.1: tokens and their errors are never cached.
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').header('pragma', 'no-cache').send(JSON.stringify(body));
  }
}
