import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { ProblemError } from '@pix/contracts';
import { correlationIdOf, inRequestContext, loggablePath } from '@pix/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fastifyClientErrorDetail } from './client-error-detail';
import { problemForStatus, replyWithProblem } from './edge-problem';
import { unavailableProblem } from './unavailable';

/**
 * For an app with no domain errors of its own (the notifier's operator endpoints): every error
 * leaves as a contract problem, a ProblemError as it says, any other chosen by its status, with the exception's message as detail for
 * client errors; a dependency that is down is 503 with Retry-After (`unavailableProblem`, as in the API); anything unexpected is a bare 500, its stack only in the log.
 */
@Catch()
export class HttpProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(error: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    // Already phrased in the contract's terms (body parsing, the operator controller's checks).
    if (error instanceof ProblemError) return replyWithProblem(reply, error.toProblema(correlationIdOf(request)));
    // The database is down or restarting: the API's 503 with Retry-After, not a 500 with a stack.
    const unavailable = unavailableProblem(error, correlationIdOf(request));
    if (unavailable) return replyWithProblem(reply, unavailable.body, { headers: unavailable.headers });
    const status = statusOf(error);
    if (status >= 500)
      inRequestContext(request, () => this.logger.error(`${request.method} ${loggablePath(request)} failed: ${error instanceof Error ? error.stack : String(error)}`));
    const detail = status < 500 && error instanceof Error ? clientDetail(error, status) : undefined;
    replyWithProblem(reply, problemForStatus(status, correlationIdOf(request), detail));
  }
}

function statusOf(error: unknown): number {
  if (error instanceof HttpException) return error.getStatus();
  const status = (error as { statusCode?: unknown })?.statusCode;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : 500;
}

/**
 * Nest hands Fastify's own errors (a body over the limit, a media type) over as
 * HttpException(English message, status), their code lost: 413 and 415 are told by status in
 * Portuguese, as the API tells them; other messages are ours, written for clients.
 */
function clientDetail(error: Error, status: number): string | undefined {
  return status === 413 || status === 415 ? fastifyClientErrorDetail(error, status) : messageOf(error);
}

/** An HttpException's own message (ours, written for clients), or the error's. */
function messageOf(error: Error): string | undefined {
  const response = error instanceof HttpException ? error.getResponse() : undefined;
  const message = typeof response === 'object' && response !== null ? (response as { message?: unknown }).message : error.message;
  return typeof message === 'string' && message.length > 0 ? message : undefined;
}
