import { Logger } from '@nestjs/common';
import Fastify from 'fastify';
import { installAccessLog } from './access-log';

/** A logger that keeps what it is asked to write. */
class Kept extends Logger {
  readonly lines: { msg: string; status: number }[] = [];
  override log(line: { msg: string; status: number }): void {
    this.lines.push(line);
  }
}

describe('access log', () => {
  it('leaves out successful health checks and requests marked quiet, never their failures', async () => {
    const fastify = Fastify();
    const logger = new Kept('Access');
    installAccessLog(fastify, { logger, quietWhenOk: (r) => r.headers['x-poll'] === '1' });
    fastify.get('/health', async () => ({ ok: true }));
    fastify.get('/metrics', async (req, reply) => (req.headers.authorization ? 'up 1' : reply.code(401).send('no')));
    fastify.get('/v2/cobv', async () => ({ cobs: [] }));
    fastify.get('/v2/failing', async (_req, reply) => reply.code(503).send({ status: 503 }));
    await fastify.ready();
    const get = (url: string, headers: Record<string, string> = {}) => fastify.inject({ method: 'GET', url, headers });
    await get('/health');
    // Prometheus scrapes every 15 s: an audit found a line per scrape per app on an idle system.
    await get('/metrics', { authorization: 'Bearer t' });
    await get('/metrics');
    await get('/v2/cobv', { 'x-poll': '1' });
    await get('/v2/failing', { 'x-poll': '1' });
    await get('/v2/cobv');
    await fastify.close();
    expect(logger.lines.map((l) => [l.msg.split(' ').slice(0, 3).join(' '), l.status])).toEqual([
      ['GET /metrics 401', 401],
      ['GET /v2/failing 503', 503],
      ['GET /v2/cobv 200', 200],
    ]);
  });
});
