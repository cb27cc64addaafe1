import Fastify, { type FastifyInstance } from 'fastify';
import { connect, type Socket } from 'node:net';
import { addressKey, CONNECTION_IDLE_MS } from './connection-limits';
import { installHttpEdge, withHttpEdge } from './http-edge';

// Connections on a bare Fastify on a loopback port: idle ones end, and one address holds at most so many.

/** A kept-alive connection: sends a request, resolves with the answer's text (or what came before the close). */
class Connection {
  private readonly socket: Socket;
  private received = '';
  readonly closed: Promise<number>;
  private readonly opened = Date.now();

  constructor(port: number) {
    this.socket = connect({ host: '127.0.0.1', port });
    this.socket.on('data', (d) => (this.received += d.toString('utf8')));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve(Date.now() - this.opened)));
  }

  async get(path: string): Promise<string> {
    this.received = '';
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: t\r\n\r\n`);
    for (const deadline = Date.now() + 3000; Date.now() < deadline; ) {
      const end = this.received.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(this.received)?.[1]);
      if (end >= 0 && Buffer.byteLength(this.received.slice(end + 4)) >= length) return this.received;
      await new Promise((r) => setTimeout(r, 5));
    }
    return this.received;
  }

  end(): void {
    this.socket.destroy();
  }
}

describe('connection limits on a bare Fastify', () => {
  let fastify: FastifyInstance;
  let port: number;
  const start = async (options: object, perAddress: number) => {
    fastify = Fastify(withHttpEdge(options) as object);
    installHttpEdge(fastify, { connectionsPerAddress: perAddress });
    fastify.get('/x', async () => ({ ok: true }));
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    port = (fastify.server.address() as { port: number }).port;
  };
  afterEach(async () => fastify?.close());

  it('answers a request on a connection past the address\'s limit 429 and closes it, leaving the others be', async () => {
    await start({}, 3);
    expect(fastify.server.timeout).toBe(CONNECTION_IDLE_MS); // the edge's default idle deadline
    const kept = [new Connection(port), new Connection(port), new Connection(port)];
    for (const c of kept) expect(await c.get('/x')).toMatch(/^HTTP\/1\.1 200 /);
    const fourth = new Connection(port);
    const refused = await fourth.get('/x');
    expect(refused).toMatch(/^HTTP\/1\.1 429 /);
    expect(refused).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(refused).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))).toMatchObject({ type: 'about:blank', status: 429, detail: expect.stringContaining('no máximo 3') });
    await fourth.closed;
    // The three open ones go on; once one closes, a new connection is welcome.
    expect(await kept[0].get('/x')).toMatch(/^HTTP\/1\.1 200 /);
    kept[1].end();
    await kept[1].closed;
    await new Promise((r) => setTimeout(r, 20));
    const fifth = new Connection(port);
    expect(await fifth.get('/x')).toMatch(/^HTTP\/1\.1 200 /);
    for (const c of [kept[0], kept[2], fifth]) c.end();
  });

  it('closes a connection that sends nothing after the idle deadline, and a kept-alive one after the keep-alive time-out', async () => {
    await start({ connectionTimeout: 300, keepAliveTimeout: 500 }, 0);
    const silent = new Connection(port);
    const quiet = new Connection(port);
    expect(await quiet.get('/x')).toMatch(/^HTTP\/1\.1 200 /);
    const [a, b] = await Promise.all([silent.closed, quiet.closed]);
    expect(a).toBeGreaterThanOrEqual(250);
    expect(a).toBeLessThan(2000);
    expect(b).toBeGreaterThanOrEqual(450);
    expect(b).toBeLessThan(2500);
  });

  it('counts an IPv4 address alone and an IPv6 client by its /64', () => {
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('2001:db8:0:1:aaaa::1')).toBe(addressKey('2001:db8:0:1:ffff:1:2:3'));
    expect(addressKey('2001:db8:0:2::1')).not.toBe(addressKey('2001:db8:0:1::1'));
  });
});
