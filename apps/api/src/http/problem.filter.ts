import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { correlationIdOf } from './correlation';
import { toProblem } from './problem-mapping';

/** Every error leaves as `application/problem+json` in the official `Problema` shape. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendProblem(error, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), this.logger);
  }
}

export function sendProblem(error: unknown, request: FastifyRequest, reply: FastifyReply, logger: Logger): void {
  const correlationId = correlationIdOf(request);
  const { status, body, unexpected } = toProblem(error, correlationId);
  if (unexpected) logger.error(`[${correlationId}] ${request.method} ${request.url} failed: ${error instanceof Error ? error.stack : String(error)}`);
  void reply.status(status).header('content-type', 'application/problem+json; charset=utf-8').header('x-correlation-id', correlationId).send(JSON.stringify(body));
}
