import type { Socket } from 'node:net';
import { correlationIdOf } from '@pix/observability';
import type { FastifyInstance } from 'fastify';
import { problemForStatus, replyWithProblem } from './edge-problem';

/**
 * A connection that carries no byte for this long is closed (Node's default is never: a client
 * that connected and sent nothing held its socket, and file descriptor, for good; one kept alive
 * after an answer already ends after Fastify's keep-alive time-out). Longer than a request may
 * take (REQUEST_TIMEOUT_MS), so it only ever ends connections with nothing in flight.
 */
export const CONNECTION_IDLE_MS = 60_000;

/** One IPv4 address, or an IPv6 /64 (what one subscriber usually holds). */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head, tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * At most `perAddress` connections open at once from one address (0: no limit). The process
 * has a few thousand file descriptors; one client holding them all left every other client, and
 * the database pool, without any. A connection past the limit gets its request answered 429
 * (about:blank, Retry-After) and is closed; the ones already open are not disturbed. Counted on
 * the TCP socket, so a TLS handshake that never finishes counts too (a TLS request's socket
 * names its TCP socket as `_parent`).
 */
export function installConnectionCap(fastify: FastifyInstance, perAddress: number): void {
  if (perAddress <= 0) return;
  const open = new Map<string, number>();
  const over = new WeakSet<Socket>();
  fastify.server.on('connection', (socket: Socket) => {
    const key = addressKey(socket.remoteAddress ?? '');
    const n = (open.get(key) ?? 0) + 1;
    open.set(key, n);
    if (n > perAddress) over.add(socket);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    const socket = request.raw.socket as Socket & { _parent?: Socket };
    if (!over.has(socket) && !(socket._parent !== undefined && over.has(socket._parent))) return done();
    const detail = `Conexões demais abertas a partir deste endereço (no máximo ${perAddress} ao mesmo tempo): reutilize as que já estão abertas.`;
    replyWithProblem(reply, problemForStatus(429, correlationIdOf(request), detail), { close: true, headers: { 'retry-after': '1' } });
  });
}
