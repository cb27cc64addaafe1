import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProblemError } from '@pix/contracts';
import { oauthInvalidRequest, speaksOAuth } from '../access/token/token-errors';
import { toProblem } from './problem-mapping';
import { correlationIdOf, inRequestContext, loggablePath } from '@pix/observability';

/** Every error leaves as `application/problem+json` in the official `Problema` shape. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendProblem(error, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), this.logger);
  }
}

const defaultLogger = new Logger('HTTP');

/** The body says only what the contract allows; the details (message, stack) go to the log alone. */
export function sendProblem(error: unknown, request: FastifyRequest, reply: FastifyReply, logger: Logger = defaultLogger): void {
  const correlationId = correlationIdOf(request);
  const { status, body, unexpected, headers } = toProblem(error, correlationId);
  if (unexpected)
    inRequestContext(request, () => logger.error(`${request.method} ${loggablePath(request)} failed: ${error instanceof Error ? error.stack : String(error)}`));
  if (headers) void reply.headers(headers);
  // The token endpoint speaks OAuth2 (ADR 8): a request refused before the handler read it (media
  // type, size, malformed JSON) is RFC 6749's invalid_request, which OAuth client libraries read.
  if (speaksOAuth(request.routeOptions?.url, status)) {
    // A 415 of ours (charset, encoding) says what was wrong; Fastify's, what the endpoint takes.
    const description =
      status === 415 && !(error instanceof ProblemError) ? 'Content-Type não suportado: envie application/x-www-form-urlencoded (RFC 6749) ou application/json.' : (body.detail ?? body.title);
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').header('x-correlation-id', correlationId).send(oauthInvalidRequest(description));
    return;
  }
  void reply.status(status).header('content-type', 'application/problem+json; charset=utf-8').header('x-correlation-id', correlationId).send(JSON.stringify(body));
}
