import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { correlationIdOf } from '@pix/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/auth-context';
import { addressKey } from '../../http/rate-limit';
import { TooManyRequestsError } from '../../http/too-many-requests';
import { clientCertificateThumbprint } from '../../auth/client-certificate';
import { ChecksPerAddress } from './checks-per-address';
import { IssueTokenHandler } from './issue-token.handler';
import { OAuthError } from './oauth-error';
import { readTokenRequest } from './token-request';

export { TOKEN_PATH } from './token-path';

/**
 * POST /oauth/token (outside the API base path, like the contract's tokenUrl). Answers in
 * OAuth2's own JSON (RFC 6749 §5.1/§5.2), not as Pix problems: OAuth client libraries read it.
 */
@Controller('oauth')
export class TokenController {
  private readonly checks = new ChecksPerAddress();

  constructor(private readonly handler: IssueTokenHandler) {}

  @Public()
  @Post('token')
  @HttpCode(200)
  async token(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const address = addressKey(request.ip);
    // Only a scrypt check waits for a slot; a secret verified before needs none (ADR 8).
    const gate = async <T>(check: () => Promise<T>): Promise<T> => {
      const release = await this.checks.enter(address);
      if (!release) throw new TooManyRequestsError(1000);
      try {
        return await check();
      } finally {
        release();
      }
    };
    let status = 200;
    let body: object;
    try {
      const tokenRequest = readTokenRequest(request.body, request.headers.authorization);
      body = await this.handler.execute(tokenRequest, clientCertificateThumbprint(request.raw), correlationIdOf(request), gate);
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
