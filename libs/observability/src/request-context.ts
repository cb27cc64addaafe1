import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { correlationIdOf } from './correlation';

/** What every log line written while serving a request can say about it. */
export interface RequestContext {
  correlationId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();
const CONTEXT = Symbol('requestContext');
const RESOURCE = Symbol('requestContextResource');

type WithContext = FastifyRequest & { [CONTEXT]?: RequestContext; [RESOURCE]?: AsyncResource };

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
 */
export function installRequestContext(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    storage.run(contextOf(request), () => {
      const resource = new AsyncResource('pix-request');
      (request as WithContext)[RESOURCE] = resource;
      resource.runInAsyncScope(done, request.raw);
    });
  });
  fastify.addHook('preValidation', (request, _reply, done) => {
    const resource = (request as WithContext)[RESOURCE];
    if (resource) resource.runInAsyncScope(done, request.raw);
    else inRequestContext(request, done);
  });
}

/** The path without its query string (which may carry personal data), safe to print. */
export function loggablePath(request: FastifyRequest): string {
  const path = request.url.split('?')[0];
  const clean = path.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}
