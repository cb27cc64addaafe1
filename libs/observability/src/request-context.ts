import type { FastifyRequest } from 'fastify';
import { correlationIdOf } from './correlation';

/**
 * The correlation id a log line written right now belongs to, set for the length of one
 * synchronous call (ADR 17). Ids travel explicitly, on the request, in commands and in messages:
 * Node 20's AsyncLocalStorage turns on promise hooks for every promise in the process, which cost
 * 14% of a PUT's instructions; code that logs for a request says whose line it is.
 */
let current: string | undefined;

/** The correlation id of the line being written, if its writer named one. */
export function currentCorrelationId(): string | undefined {
  return current;
}

/**
 * Runs `fn` with `correlationId` on every line it logs synchronously (an async `fn` keeps it only
 * up to its first await: log after an await inside a call of your own).
 */
export function withCorrelationId<T>(correlationId: string | undefined, fn: () => T): T {
  const previous = current;
  current = correlationId;
  try {
    return fn();
  } finally {
    current = previous;
  }
}

/** Runs `fn` with the request's correlation id on the lines it logs (see withCorrelationId). */
export function inRequestContext<T>(request: FastifyRequest, fn: () => T): T {
  return withCorrelationId(correlationIdOf(request), fn);
}

/** The path without its query string (which may carry personal data), safe to print. */
export function loggablePath(request: FastifyRequest): string {
  const path = request.url.split('?')[0];
  const clean = path.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}
