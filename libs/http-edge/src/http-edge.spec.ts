import Fastify, { type FastifyInstance } from 'fastify';
import { connect } from 'node:net';
import { beginDraining } from './closing';
import { repeatedSingleField } from './duplicate-headers';
import { problemForStatus } from './edge-problem';
import { installHttpEdge, withHttpEdge } from './http-edge';

// The edge on a bare Fastify on a loopback port: the time-out and the drain are hard to reach
// through a whole app (30 s time-out, shutdown), so they are checked here.

/** Everything the server sends on one connection until it closes it (or `waitMs` passes). */
function exchange(port: number, writes: { afterMs: number; bytes: string }[], waitMs = 3000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    const done = () => (clearTimeout(timer), socket.destroy(), resolve(received));
    const timer = setTimeout(done, waitMs);
    socket.on('data', (d) => (received += d.toString('utf8')));
    socket.on('close', done);
    socket.on('error', done);
    for (const w of writes) setTimeout(() => socket.write(w.bytes), w.afterMs);
  });
}

const problemOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));

describe('http-edge on a bare Fastify', () => {
  let fastify: FastifyInstance;
  let port: number;
  let release: () => void = () => undefined;

  beforeEach(async () => {
    // A short request time-out, checked often, so the 408 path runs in milliseconds.
    fastify = Fastify(withHttpEdge({ requestTimeout: 300, http: { connectionsCheckingInterval: 50 } }) as object);
    installHttpEdge(fastify);
    fastify.get('/slow', () => new Promise((r) => (release = () => r({ ok: true }))));
    fastify.get('/fast', async () => ({ ok: true }));
    // Answered before its body is read (as a 415 for Content-Encoding or a 429 of the rate limit are).
    fastify.post('/early', { onRequest: async (_request, reply) => reply.code(429).send({ refused: true }) }, async () => ({ ok: true }));
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    port = (fastify.server.address() as { port: number }).port;
  });
  afterEach(async () => {
    release();
    await fastify.close();
  });

  it('answers a request that never completes with a 408 problem and closes the connection', async () => {
    const text = await exchange(port, [{ afterMs: 0, bytes: 'GET /fast HTTP/1.1\r\nHost: t\r\nX-Slow: ' }]);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toMatch(/\r\nConnection: close\r\n/);
    expect(text).toMatch(/\r\nContent-Type: application\/problem\+json/);
    expect(problemOf(text)).toEqual({ type: 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida', title: 'Requisição Inválida', status: 408, detail: expect.any(String), correlationId: expect.any(String) });
  });

  it('closes the connection after an answer sent before the body was read: no second answer (408) when the rest never comes', async () => {
    const text = await exchange(port, [{ afterMs: 0, bytes: 'POST /early HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":' }], 1500);
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(text).toMatch(/^HTTP\/1\.1 429 /);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('answers once per connection however many bad bytes follow', async () => {
    const text = await exchange(port, [
      { afterMs: 0, bytes: 'FOO / HTTP/1.1\r\nHost: t\r\n\r\n' },
      { afterMs: 20, bytes: 'BAR / HTTP/1.1\r\n\r\n' },
    ]);
    expect(text.match(/HTTP\/1\.1 400 /g)).toHaveLength(1);
  });

  it('answers requests that arrive while the server drains with a 503 problem, Retry-After and Connection: close', async () => {
    const text = exchange(port, [
      { afterMs: 0, bytes: 'GET /slow HTTP/1.1\r\nHost: t\r\n\r\n' },
      { afterMs: 200, bytes: 'GET /fast HTTP/1.1\r\nHost: t\r\n\r\n' },
    ]);
    setTimeout(() => void fastify.close(), 100);
    setTimeout(() => release(), 400);
    const answers = await text;
    const second = answers.slice(answers.indexOf('HTTP/1.1', 10));
    expect(answers).toMatch(/^HTTP\/1\.1 200 /);
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4))).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel', status: 503 });
  });

  it('once draining has begun, serves requests on a kept-alive connection, pipelined ones included, and closes it after the last answer', async () => {
    const text = exchange(port, [
      { afterMs: 0, bytes: 'GET /fast HTTP/1.1\r\nHost: t\r\n\r\n' },
      { afterMs: 100, bytes: 'GET /slow HTTP/1.1\r\nHost: t\r\n\r\nGET /fast HTTP/1.1\r\nHost: t\r\n\r\n' },
    ]);
    setTimeout(() => beginDraining(fastify), 50);
    setTimeout(() => release(), 200);
    const answers = (await text).split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((a) => [a.slice(0, 12), /\r\nconnection: (\S+)\r\n/i.exec(a)?.[1]])).toEqual([
      ['HTTP/1.1 200', 'keep-alive'],
      ['HTTP/1.1 200', 'keep-alive'],
      ['HTTP/1.1 200', 'close'],
    ]);
  });

  it('an answer in flight when the server starts closing closes its connection', async () => {
    const text = exchange(port, [{ afterMs: 0, bytes: 'GET /slow HTTP/1.1\r\nHost: t\r\n\r\n' }]);
    setTimeout(() => void fastify.close(), 100);
    setTimeout(() => release(), 200);
    expect(await text).toMatch(/^HTTP\/1\.1 200 [^]*\r\nconnection: close\r\n/i);
  });
});

describe('repeatedSingleField', () => {
  it('names the first single-valued field sent twice, in any case', () => {
    expect(repeatedSingleField(['Host', 'a', 'Accept', '*/*', 'HOST', 'b'])).toBe('host');
    expect(repeatedSingleField(['authorization', 'Bearer x', 'Authorization', 'Bearer y'])).toBe('authorization');
  });
  it('lets repeatable fields and single ones sent once through', () => {
    expect(repeatedSingleField(['Host', 'a', 'Accept', 'a', 'Accept', 'b', 'Authorization', 'x'])).toBeUndefined();
  });
});

describe('problemForStatus', () => {
  it('tells statuses in the contract types the API already uses', () => {
    expect(problemForStatus(404, 'c').type).toMatch(/NaoEncontrado$/);
    expect(problemForStatus(431, 'c')).toMatchObject({ type: expect.stringMatching(/RequisicaoInvalida$/), status: 431 });
    expect(problemForStatus(401, 'c', 'sem token')).toEqual({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'sem token', correlationId: 'c' });
    expect(problemForStatus(503, 'c').type).toMatch(/ServicoIndisponivel$/);
    expect(problemForStatus(502, 'c', 'segredo')).toEqual(expect.objectContaining({ status: 500, detail: expect.not.stringContaining('segredo') }));
  });
});

describe('withHttpEdge deadlines', () => {
  it('gives every server a deadline for the whole request unless it sets its own (the notifier had none)', () => {
    expect(withHttpEdge({})).toMatchObject({ requestTimeout: 30_000, http: { headersTimeout: 30_000, connectionsCheckingInterval: 5_000 } });
    expect(withHttpEdge({ requestTimeout: 5_000 }).requestTimeout).toBe(5_000);
    // An HTTPS server passes the deadlines in its own options; no `http` is added beside them.
    expect(withHttpEdge({ https: { headersTimeout: 30_000 } })).not.toHaveProperty('http');
  });
});
