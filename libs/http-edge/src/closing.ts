import { correlationIdOf } from '@pix/observability';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { problemForStatus, replyWithProblem } from './edge-problem';
import { hasPipelinedRequests } from './pipelining';

/** Node servers whose app is shutting down (the delay, then the drain); keyed by the server, which every encapsulated instance shares. */
const draining = new WeakSet<object>();

/**
 * A shutdown's first phase, before the port closes: requests are still served, but each answer
 * carries `Connection: close`, so keep-alive clients move to a new connection (and, once the load
 * balancer has seen readiness fail, to another instance) instead of having an idle socket reset
 * under them later. Readiness probes ask `isDraining` and answer 503.
 */
export function beginDraining(fastify: FastifyInstance): void {
  draining.add(fastify.server);
}

/** Whether the app answering `reply` is shutting down. */
export function isDraining(reply: FastifyReply): boolean {
  return draining.has(reply.server.server);
}

/**
 * Fastify's own `return503OnClosing` answers a bare `{"error":...}` while the server drains; this
 * hook answers the contract's 503 `ServicoIndisponivel` instead (with `Retry-After`, and the
 * connection closed so the client reconnects to another instance). Fastify's is turned off.
 * From `beginDraining` on, and while closing, every answer closes its connection cleanly, unless
 * pipelined requests wait behind it: those are answered first, the last one closing.
 */
export function installClosingRefusal(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    draining.add(fastify.server);
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    const problem = problemForStatus(503, correlationIdOf(request), 'O servidor está encerrando; repita a requisição.');
    replyWithProblem(reply, problem, { close: true, headers: { 'retry-after': '1' } });
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (draining.has(fastify.server) && !hasPipelinedRequests(request.raw.socket)) void reply.header('connection', 'close');
    done(null, payload);
  });
}
