import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { correlationIdOf } from './correlation';

/** What every log line written while serving a request can say about it. */
export interface RequestContext {
  correlationId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();
const CONTEXT = Symbol('requestContext');

type WithContext = FastifyRequest & { [CONTEXT]?: RequestContext };

/** The correlation id of the request being served here, if any. */
export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

function contextOf(request: FastifyRequest): RequestContext {
  const r = request as WithContext;
  return (r[CONTEXT] ??= { correlationId: correlationIdOf(request) });
}

/** Runs `fn` inside the request's context, wherever it is called from (hooks, error handlers). */
export function inRequestContext<T>(request: FastifyRequest, fn: () => T): T {
  return storage.run(contextOf(request), fn);
}

/**
 * Opens the context in onRequest. Body parsing finishes on the socket's own async context, so
 * (as @fastify/request-context does) the rest of the chain is re-entered from preValidation.
 * Both enter with `storage.run`: what `done` starts (the hooks, the handler, their promises)
 * takes the store from there, as it did inside an AsyncResource per request, without that
 * resource's init and scope hooks on every request.
 */
export function installRequestContext(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    inRequestContext(request, done);
  });
  fastify.addHook('preValidation', (request, _reply, done) => {
    inRequestContext(request, done);
  });
}

/** The path without its query string (which may carry personal data), safe to print. */
export function loggablePath(request: FastifyRequest): string {
  const path = request.url.split('?')[0];
  const clean = path.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}
