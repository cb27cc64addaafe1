import type { IncomingMessage } from 'node:http';
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
    // An answer sent before the request's body was read whole (a 415 for its encoding, a 429, any
    // refusal in onRequest) also closes: the rest of the body is drained and dropped (Node's
    // destroySoon is a lingering close here, installServerEdge), where Node's request time-out
    // answered a second time, a 408 after the 429, on a connection left open (an audit, 2026-11-27).
    if ((draining.has(fastify.server) && !hasPipelinedRequests(request.raw.socket)) || bodyUnread(request.raw)) void reply.header('connection', 'close');
    done(null, payload);
  });
}

/** A body was announced and not all of it has arrived (a request without one is complete, if not yet marked so). */
function bodyUnread(request: IncomingMessage): boolean {
  if (request.complete) return false;
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
