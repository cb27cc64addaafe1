import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';

// How bodies are read at the edge: memory proportional to the bytes however the body is cut.
jest.setTimeout(90_000);

const MiB = 1_048_576;

/** The heap still reachable: a full collection first (garbage in heapUsed depends on when V8 last collected). */
function liveHeap(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

/** Writes `bytes` on a fresh connection and resolves with the status line of the first answer. */
function statusOf(api: RunningApi, bytes: Buffer): Promise<string> {
  return sendInTwo(api, bytes, Buffer.alloc(0), async () => undefined);
}

/**
 * Writes `first`, awaits `between`, writes `rest`; resolves with the status line of the first answer.
 * `between` is told whether the exchange is still open: an early answer (a 408) ends it, and a
 * wait that went on polling after that outlived the test file by up to a minute (jest then
 * force-exited its worker).
 */
function sendInTwo(api: RunningApi, first: Buffer, rest: Buffer, between: (open: () => boolean) => Promise<void>): Promise<string> {
  const { hostname, port } = new URL(api.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let text = '';
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`connection closed before a status line: ${JSON.stringify(text.slice(0, 80))}`)));
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n')) {
        resolve(text.slice(0, text.indexOf('\r\n')));
        socket.destroy();
      }
    });
    socket.write(first);
    const open = () => !socket.destroyed;
    between(open).then(() => open() && socket.write(rest), reject);
  });
}

describe('request bodies at the edge', () => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await startApi();
    token = await api.tokenFor();
  });
  afterAll(async () => {
    await api?.stop();
  });

  // Fastify's reader kept one Buffer object per chunk until the body ended: ~170 bytes of heap
  // per byte sent one per chunk (1 MiB of body grew the heap by well over 100 MB).
  it('a 1 MiB body sent one byte per chunk costs the heap about its size, and is served', async () => {
    const json = JSON.stringify(validCobV());
    const body = Buffer.from(json + ' '.repeat(MiB - json.length)); // trailing whitespace is valid JSON
    const wire = Buffer.alloc(body.length * 6);
    for (let i = 0; i < body.length; i++) wire.write(`1\r\n${String.fromCharCode(body[i])}\r\n`, i * 6, 'latin1');
    const head = `PUT /v2/cobv/${newTxid('ob')} HTTP/1.1\r\nHost: api.localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    // The app runs in this process: its heap is ours. Measured once the server has read every
    // chunk but the last (all of them parsed and handed to the body's reader, the body not yet
    // ended: when keeping every chunk held the most), after a full collection: what is retained,
    // not garbage. heapUsed sampled while the body streamed counted garbage too, which V8 had or
    // had not collected yet depending on the jest worker's history (188 MB once in CI with the
    // body read correctly); a full collection every 50 ms instead starved the server in a large
    // worker heap (408). Two collections in all.
    const first = Buffer.concat([Buffer.from(head), wire]);
    const server = api.app.getHttpServer() as Server;
    let serverSide: Socket | undefined;
    server.once('connection', (socket: Socket) => (serverSide = socket));
    const before = liveHeap();
    let retained = 0;
    const status = await sendInTwo(api, first, Buffer.from('0\r\n\r\n'), async (open) => {
      const deadline = Date.now() + 60_000;
      while ((serverSide?.bytesRead ?? 0) < first.length) {
        if (!open()) return;
        if (Date.now() > deadline) throw new Error(`the server read ${serverSide?.bytesRead} of ${first.length} bytes in 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      retained = liveHeap() - before;
    });
    expect(status).toBe('HTTP/1.1 201 Created');
    expect(Math.round(retained / MiB)).toBeLessThan(30);
  });

  // Memory audit: 4 MiB of `[{},{},…]` was read whole (1.4 million objects, ~1 s of the event
  // loop and ~100 MB of heap each) before the guard answered 401; with or without a token.
  it('a body denser than one JSON value per 8 bytes is refused as such, before it is built', async () => {
    const body = `{"cobsv":[${'{},'.repeat(Math.floor((4 * MiB - 64) / 3))}{}]}`;
    const res = await api.raw('PUT', '/lotecobv/1', body, { 'content-type': 'application/json' });
    expect([res.status, res.body.type]).toEqual([400, 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida']);
    expect(res.body.detail).toContain('valores demais');
    // Without a token it is not read at all (below).
    const anonymous = await api.raw('PUT', '/lotecobv/1', body, { 'content-type': 'application/json' }, { auth: false });
    expect(anonymous.status).toBe(401);
  });

  // Audit of 2026-11-27: a caller without a token had its body read and parsed (4 MiB in about
  // 35 ms of the API's one thread) before the guard refused it, so anyone could spend the API's
  // CPU for free. The token is now checked first: the answer comes with most of the body unsent.
  it.each([
    ['no token', ''],
    ['a token that is not ours', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl\r\n'],
  ])('a scoped route answers 401 to %s before reading the body', async (_name, authorization) => {
    const head = `PUT /v2/cobv/${newTxid('nb')} HTTP/1.1\r\nHost: api.localhost\r\n${authorization}Content-Type: application/json\r\nContent-Length: ${4 * MiB}\r\n\r\n`;
    // Malformed as JSON: read before the token, it was answered 400 once the rest arrived.
    let restSent = false;
    const status = await sendInTwo(api, Buffer.from(`${head}{"calendario":`), Buffer.alloc(4 * MiB - 14, 'x'), async (open) => {
      const deadline = Date.now() + 3000;
      while (open() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      restSent = open();
    });
    expect([status, restSent]).toEqual(['HTTP/1.1 401 Unauthorized', false]);
  });

  // fetch-style clients send Content-Type: application/json on every request, with or without a body.
  it('an empty body with Content-Type on a method whose routes take none (DELETE, GET) is no body', async () => {
    const put = await api.request('PUT', `/cobv/${newTxid('eb')}`, validCobV());
    expect(put.status).toBe(201);
    const id = put.body.loc.id;
    const json = { 'content-type': 'application/json' };
    // Without Content-Length (fetch with no body), then with Content-Length: 0 (fetch with '').
    for (const del of [await api.request('DELETE', `/loc/${id}/txid`, undefined, json), await api.raw('DELETE', `/loc/${id}/txid`, '', json)])
      expect([del.status, del.body?.id]).toEqual([200, id]);
    const get = await api.request('GET', `/loc/${id}`, undefined, json);
    expect([get.status, get.body?.id]).toEqual([200, id]);
    // Chunked with no chunk at all: empty too.
    const chunked = `DELETE /v2/loc/${id}/txid HTTP/1.1\r\nHost: api.localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`;
    expect(await statusOf(api, Buffer.from(chunked))).toBe('HTTP/1.1 200 OK');
    // A body that is there is still read as JSON: malformed, it is refused as before.
    const bad = await api.raw('DELETE', `/loc/${id}/txid`, '{', json);
    expect([bad.status, bad.body.type]).toEqual([400, expect.stringMatching(/RequisicaoInvalida$/)]);
  });
});
