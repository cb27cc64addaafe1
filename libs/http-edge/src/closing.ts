import { correlationIdOf } from '@pix/observability';
import type { FastifyInstance } from 'fastify';
import { problemForStatus, replyWithProblem } from './edge-problem';

/**
 * Fastify's own `return503OnClosing` answers a bare `{"error":...}` while the server drains; this
 * hook answers the contract's 503 `ServicoIndisponivel` instead (with `Retry-After`, and the
 * connection closed so the client reconnects to another instance). Fastify's is turned off.
 */
export function installClosingRefusal(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    const problem = problemForStatus(503, correlationIdOf(request), 'O servidor está encerrando; repita a requisição.');
    replyWithProblem(reply, problem, { close: true, headers: { 'retry-after': '1' } });
  });
}
