import { createHash, timingSafeEqual } from 'node:crypto';
import { buildProblema } from '@pix/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { correlationIdOf } from './correlation';
import type { Metrics } from './metrics';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The route's template (`/v2/cobv/:txid`), never the raw URL: bounded, and free of txids and keys. */
export function routeTemplateOf(request: FastifyRequest): string {
  return request.routeOptions?.url ?? '(unmatched)';
}

/** Counts and times every answered request by route template, method and status. */
export function installHttpMetrics(fastify: FastifyInstance, metrics: Metrics, observe?: (request: FastifyRequest, reply: FastifyReply) => void): void {
  // One bound child per (method, route, status), bounded by the routes: prom-client hashes a
  // label object on every call otherwise (a few per cent of a request's CPU in a profile).
  const series = new Map<string, { requests: { inc(): void }; duration: { observe(seconds: number): void } }>();
  fastify.addHook('onResponse', (request, reply, done) => {
    const method = METHODS.has(request.method) ? request.method : 'OTHER';
    const route = routeTemplateOf(request);
    const key = `${method} ${reply.statusCode} ${route}`;
    let bound = series.get(key);
    if (!bound) {
      const labels = { method, route, status: String(reply.statusCode) };
      series.set(key, (bound = { requests: metrics.httpRequests.labels(labels), duration: metrics.httpDuration.labels(labels) }));
    }
    bound.requests.inc();
    bound.duration.observe(reply.elapsedTime / 1000);
    observe?.(request, reply);
    done();
  });
}

export interface MetricsEndpointOptions {
  /** Bearer token required to read /metrics; without one, `open` decides. */
  token?: string;
  /** Serve without a token (local mode); in production /metrics stays shut without METRICS_TOKEN. */
  open: boolean;
}

/**
 * `GET /metrics` in the Prometheus text format. Behind `Authorization: Bearer <METRICS_TOKEN>`
 * when a token is set (compared as digests, in constant time); 403 when shut.
 */
export function installMetricsEndpoint(fastify: FastifyInstance, metrics: Metrics, options: MetricsEndpointOptions): void {
  const expected = options.token ? digest(options.token) : undefined;
  fastify.get('/metrics', async (request, reply) => {
    const correlationId = correlationIdOf(request);
    const problem = (body: { status: number; type: string; title: string; detail?: string; correlationId?: string }) => reply.status(body.status).header('content-type', 'application/problem+json; charset=utf-8').send(JSON.stringify(body));
    if (expected) {
      const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!given || !timingSafeEqual(digest(given), expected)) {
        void reply.header('www-authenticate', 'Bearer realm="metrics"');
        // The contract types no 401: RFC 7807's about:blank, as the API's own 401s.
        return problem({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'Metrics need Authorization: Bearer <METRICS_TOKEN>.', correlationId });
      }
    } else if (!options.open) return problem(buildProblema('AcessoNegado', { detail: 'Metrics are off: set METRICS_TOKEN to read them.', correlationId }));
    return reply.header('content-type', metrics.contentType).send(await metrics.text());
  });
}

const digest = (s: string) => createHash('sha256').update(s).digest();
