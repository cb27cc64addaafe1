import { randomUUID } from 'node:crypto';
import { CORRELATION_ID_HEADER, saneCorrelationId } from '@pix/contracts';
import type { FastifyRequest } from 'fastify';

/** The caller's correlation id when it sends a sane one, else a new one; echoed on every answer. */
export function correlationIdOf(request: FastifyRequest): string {
  const cached = (request as { correlationId?: string }).correlationId;
  if (cached) return cached;
  const id = saneCorrelationId(request.headers[CORRELATION_ID_HEADER]) ?? randomUUID();
  (request as { correlationId?: string }).correlationId = id;
  return id;
}
