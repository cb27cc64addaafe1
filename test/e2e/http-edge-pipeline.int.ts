import { connect } from 'node:net';
import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';

// RFC 9112 §9.6: a request pipelined on a connection is executed only once the responses before
// it have finished, and never if one of them closes the connection. Node parses a pipelined
// request (and emits it) at once, queueing only its response: a PUT sent in the same write as a
// body over the limit was stored, though its client saw nothing but the first request's 413.
jest.setTimeout(60_000);

interface Exchange {
  answers: { status: number; text: string }[];
  closed: boolean;
}

/** Writes `bytes` in one write and reads every answer (Content-Length framed) until `count` or the server closes. */
function pipelined(api: RunningApi, bytes: Buffer, count: number, timeoutMs = 10_000): Promise<Exchange> {
  const { hostname, port } = new URL(api.baseUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let data = Buffer.alloc(0);
    const answers: Exchange['answers'] = [];
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ answers, closed });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      for (let end = data.indexOf('\r\n\r\n'); end >= 0; end = data.indexOf('\r\n\r\n')) {
        const head = data.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (data.length < end + 4 + length) break;
        answers.push({ status: Number(head.slice(9, 12)), text: data.subarray(end + 4, end + 4 + length).toString() });
        data = data.subarray(end + 4 + length);
      }
      if (answers.length >= count) finish(false);
    });
    socket.write(bytes);
  });
}

describe('a pipelined request waits for the answers before it on its connection', () => {
  let api: RunningApi;
  let token: string;
  const head = (method: string, txid: string, framing: string) =>
    `${method} /v2/cobv/${txid} HTTP/1.1\r\nHost: api.localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n${framing}\r\n`;
  const putOf = (txid: string) => {
    const body = JSON.stringify(validCobV());
    return Buffer.from(head('PUT', txid, `Content-Length: ${Buffer.byteLength(body)}\r\n`) + body);
  };
  const getOf = (txid: string) => Buffer.from(`GET /v2/cobv/${txid} HTTP/1.1\r\nHost: api.localhost\r\nAuthorization: Bearer ${token}\r\n\r\n`);

  beforeAll(async () => {
    api = await startApi();
    token = await api.tokenFor();
  });
  afterAll(async () => {
    await api?.stop();
  });

  it.each([
    ['chunked, one byte over the limit', 1, true],
    ['chunked, 1 KiB over the limit', 1024, true],
    ['chunked, 16 KiB over the limit', 16 * 1024, true],
    ['declared in Content-Length, one byte over the limit', 1, false],
  ])('is never executed after a 413 that closes the connection (%s)', async (_case, over, chunked) => {
    const size = api.config.maxBodyBytes + over;
    const refused = chunked
      ? [Buffer.from(head('PUT', newTxid('pb'), `Transfer-Encoding: chunked\r\n`) + `${size.toString(16)}\r\n`), Buffer.alloc(size, 'x'), Buffer.from('\r\n0\r\n\r\n')]
      : [Buffer.from(head('PUT', newTxid('pb'), `Content-Length: ${size}\r\n`)), Buffer.alloc(size, 'x')];
    const txid = newTxid('pp');
    const exchange = await pipelined(api, Buffer.concat([...refused, putOf(txid)]), 2);
    expect(exchange.answers.map((a) => a.status)).toEqual([413]);
    expect(exchange.closed).toBe(true);
    // Give a wrongly executed PUT time to commit before looking.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await api.request('GET', `/cobv/${txid}`)).status).toBe(404);
  });

  it('answers ordinary pipelined requests in order, each executed after the one before it answered', async () => {
    const txid = newTxid('po');
    // The GET is parsed with the PUT; it reads the charge only because it runs after the PUT's answer.
    const exchange = await pipelined(api, Buffer.concat([getOf(txid), putOf(txid), getOf(txid), getOf(txid)]), 4);
    expect(exchange.answers.map((a) => a.status)).toEqual([404, 201, 200, 200]);
    expect(JSON.parse(exchange.answers[2].text).txid).toBe(txid);
    expect(exchange.closed).toBe(false);
  });

  it.each([
    ['an unknown method', Buffer.from('BOGUS\r\n\r\n'), 400],
    ['a header over the limit', Buffer.from(`GET /v2/cobv/x HTTP/1.1\r\nHost: api.localhost\r\nX-Big: ${'a'.repeat(100 * 1024)}\r\n\r\n`), 431],
  ])('answers whole requests before refusing the bytes after them (%s): the PUT stored is the PUT answered', async (_case, refused, status) => {
    const txid = newTxid('pr');
    const exchange = await pipelined(api, Buffer.concat([putOf(txid), getOf(txid), refused]), 3);
    expect(exchange.answers.map((a) => a.status)).toEqual([201, 200, status]);
    expect(JSON.parse(exchange.answers[1].text).txid).toBe(txid);
    expect(JSON.parse(exchange.answers[2].text)).toMatchObject({ status });
  });

  it('stops reading a connection whose pipelined requests pile up unanswered, and serves them all once it reads', async () => {
    // Audit, 2026-11-27: 200,000 pipelined requests from a client that never read took the heap
    // from 43 to 510 MB, and ten such clients took the API down for minutes.
    const live = Buffer.from('GET /health/live HTTP/1.1\r\nHost: api.localhost\r\n\r\n');
    const server = api.app.getHttpServer() as import('node:http').Server;
    const accepted: import('node:net').Socket[] = [];
    const onConnection = (s: import('node:net').Socket) => accepted.push(s);
    server.on('connection', onConnection);
    const { hostname, port } = new URL(api.baseUrl);
    const flood = connect({ host: hostname, port: Number(port) });
    flood.on('error', () => undefined);
    try {
      await new Promise((resolve) => flood.once('connect', resolve));
      flood.pause(); // never reads: the answers back up
      flood.write(Buffer.concat(Array.from({ length: 100_000 }, () => live))); // 4.7 MB
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const taken = accepted.reduce((n, s) => n + s.bytesRead, 0);
      console.log(`flood: the server read ${taken} bytes`);
      // Without the bound the server had read all 4.7 MB (100,000 requests parsed and held).
      expect(taken).toBeLessThan(1_500_000);
    } finally {
      flood.destroy();
      server.off('connection', onConnection);
    }
    // Pausing and resuming many times over loses nothing: 5,000 in one write, every answer in order.
    const exchange = await pipelined(api, Buffer.concat(Array.from({ length: 5_000 }, () => live)), 5_000, 30_000);
    expect(exchange.answers.length).toBe(5_000);
    expect(exchange.answers.every((a) => a.status === 200)).toBe(true);
    expect(exchange.closed).toBe(false);
  });
});
