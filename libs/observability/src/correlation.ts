import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

const HEADER = 'x-correlation-id';

/** The caller's correlation id when it sends a sane one, else a new one; echoed on every answer. */
export function correlationIdOf(request: FastifyRequest): string {
  const cached = (request as { correlationId?: string }).correlationId;
  if (cached) return cached;
  const given = request.headers[HEADER];
  const id = typeof given === 'string' && /^[A-Za-z0-9._:-]{1,100}$/.test(given) ? given : randomUUID();
  (request as { correlationId?: string }).correlationId = id;
  return id;
}
