import { createResponseValidator, createTestDatabase, PROBLEM_TYPE, type TestDatabase } from '@pix/testing';
import { LOCAL_KEY, newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { freePort } from '../support/api-process';
import { kafkaBrokers } from '../support/kafka-client';
import { OPERATOR_TOKEN, startNotifierProcess, type NotifierProcess } from '../support/notifier-process';
import { rawExchange, type RawAnswer } from '../support/raw-http';

// Errors found below the application (Node's HTTP parser, Fastify's router, Node's own answers)
// are contract problems like every other, over real sockets; a header block that can be read two
// ways is refused before anything acts on it; and every route answers the same with or without
// one trailing slash.
jest.setTimeout(90_000);

const validator = createResponseValidator();

/** A problem+json body of the contract's `Problema` shape with this status and its correlation id echoed. */
function expectProblem(answer: { status: number; headers: Record<string, string>; body: any }, status: number, type?: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  const shape = validator.validateSchema('Problema', answer.body);
  expect(shape.errors).toEqual([]);
  expect(answer.body.status).toBe(status);
  if (answer.body.type !== 'about:blank') expect(answer.body.type).toMatch(PROBLEM_TYPE);
  if (type) expect(answer.body.type).toBe(`https://pix.bcb.gov.br/api/v2/error/${type}`);
  expect(typeof answer.body.detail).toBe('string');
  expect(answer.body.correlationId).toEqual(expect.any(String));
  expect(answer.headers['x-correlation-id']).toBe(answer.body.correlationId);
}

/** A refusal after which the server closed the connection, and said so. */
function expectClosingProblem(answer: RawAnswer, status: number, type?: string): void {
  expectProblem(answer, status, type);
  expect(answer.headers.connection).toBe('close');
  expect(answer.closed).toBe(true);
}

describe('HTTP edge of the API', () => {
  let api: RunningApi;
  let token: string;
  const put = (txid: string, extraHeaders = '') =>
    `PUT /v2/cobv/${txid} HTTP/1.1\r\nHost: api.localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n${extraHeaders}`;
  const expectNotStored = async (txid: string) => {
    const read = await api.request('GET', `/cobv/${txid}`);
    expect(read.status).toBe(404);
    expect(read.body.type).toMatch(/CobVNaoEncontrada$/);
  };

  beforeAll(async () => {
    api = await startApi();
    token = await api.tokenFor();
  });
  afterAll(async () => {
    await api?.stop();
  });

  describe('errors of the HTTP parser are problems, and the connection is closed with Connection: close', () => {
    it('answers 431 to oversized headers', async () => {
      expectClosingProblem(await rawExchange(api.baseUrl, `GET /v2/cobv HTTP/1.1\r\nHost: api.localhost\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`), 431, 'RequisicaoInvalida');
    });

    it('answers 400 to an unknown method', async () => {
      expectClosingProblem(await rawExchange(api.baseUrl, 'FOO / HTTP/1.1\r\nHost: api.localhost\r\n\r\n'), 400, 'RequisicaoInvalida');
    });

    it('answers 400 to NUL in the request line', async () => {
      expectClosingProblem(await rawExchange(api.baseUrl, Buffer.from('GET /v2/co\0bv HTTP/1.1\r\nHost: api.localhost\r\n\r\n')), 400, 'RequisicaoInvalida');
    });

    it('answers 400 to a malformed or repeated Content-Length and stores nothing', async () => {
      for (const header of ['Content-Length: abc\r\n', 'Content-Length: -1\r\n', 'Content-Length: 3\r\nContent-Length: 4\r\n', 'Content-Length: 2\r\nTransfer-Encoding: chunked\r\n']) {
        const txid = newTxid('cl');
        const body = JSON.stringify(validCobV());
        expectClosingProblem(await rawExchange(api.baseUrl, `${put(txid, header)}\r\n${body}`), 400, 'RequisicaoInvalida');
        await expectNotStored(txid);
      }
    });

    it('answers 400 to malformed chunking, even after a complete first chunk, and stores nothing', async () => {
      const body = JSON.stringify(validCobV());
      const chunked = 'Transfer-Encoding: chunked\r\n\r\n';
      for (const framing of [`zz\r\n${body}\r\n0\r\n\r\n`, `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\nzz\r\n\r\n`, `${Buffer.byteLength(body).toString(16)}\r\n${body}XX0\r\n\r\n`]) {
        const txid = newTxid('ch');
        expectClosingProblem(await rawExchange(api.baseUrl, `${put(txid, chunked)}${framing}`), 400, 'RequisicaoInvalida');
        await expectNotStored(txid);
      }
    });

    it('answers 400 to an HTTP/1.1 request without Host, 417 to an Expect it cannot meet, 405 to CONNECT', async () => {
      expectClosingProblem(await rawExchange(api.baseUrl, 'GET /health HTTP/1.1\r\n\r\n'), 400, 'RequisicaoInvalida');
      const txid = newTxid('ex');
      expectClosingProblem(await rawExchange(api.baseUrl, `${put(txid, 'Expect: 200-ok\r\nContent-Length: 2\r\n')}\r\n{}`), 417, 'RequisicaoInvalida');
      await expectNotStored(txid);
      expectClosingProblem(await rawExchange(api.baseUrl, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), 405, 'RequisicaoInvalida');
    });

    it('answers a body declared too large with its 413 before inviting it (no 100 Continue), and invites one that fits', async () => {
      const txid = newTxid('ec');
      // Headers only: a client honouring Expect waits for 100 before it sends the body.
      const tooLarge = await rawExchange(api.baseUrl, put(txid, `Expect: 100-continue\r\nContent-Length: ${api.config.maxBodyBytes + 1}\r\n`) + '\r\n');
      expect(tooLarge.status).toBe(413);
      const fits = await rawExchange(api.baseUrl, put(txid, 'Expect: 100-continue\r\nContent-Length: 2\r\n') + '\r\n', { closeWaitMs: 0 });
      expect(fits.status).toBe(100);
      await expectNotStored(txid);
    });
  });

  describe('a header block that can be read two ways is refused with 400', () => {
    it('refuses a duplicated Host and stores nothing', async () => {
      const txid = newTxid('dh');
      const body = JSON.stringify(validCobV());
      const answer = await rawExchange(api.baseUrl, `${put(txid, `Host: evil.test\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`)}\r\n${body}`);
      expectClosingProblem(answer, 400, 'RequisicaoInvalida');
      expect(answer.body.detail).toMatch(/host/i);
      await expectNotStored(txid);
    });

    it('refuses a duplicated Authorization, the valid one first, and stores nothing', async () => {
      const txid = newTxid('da');
      const body = JSON.stringify(validCobV());
      const answer = await rawExchange(api.baseUrl, `${put(txid, `Authorization: Bearer not-a-token\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`)}\r\n${body}`);
      expectClosingProblem(answer, 400, 'RequisicaoInvalida');
      expect(answer.body.detail).toMatch(/authorization/i);
      await expectNotStored(txid);
      // The same request with one Authorization is served: the refusal was the duplicate's.
      const once = await rawExchange(api.baseUrl, `${put(txid, `Content-Length: ${Buffer.byteLength(body)}\r\n`)}\r\n${body}`);
      expect(once.status).toBe(201);
    });

    it('refuses a transfer coding other than chunked alone (gzip, chunked: the body would be read undecoded) and stores nothing', async () => {
      const body = JSON.stringify(validCobV());
      const framing = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
      for (const coding of ['gzip, chunked', 'chunked, chunked', 'identity, chunked', 'Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked']) {
        const txid = newTxid('te');
        const header = coding.startsWith('Transfer-Encoding') ? `${coding}\r\n` : `Transfer-Encoding: ${coding}\r\n`;
        const answer = await rawExchange(api.baseUrl, `${put(txid, header)}\r\n${framing}`);
        expectClosingProblem(answer, 400, 'RequisicaoInvalida');
        expect(answer.body.detail).toMatch(/Transfer-Encoding/);
        await expectNotStored(txid);
      }
      // Chunked alone, in any case, is served.
      const txid = newTxid('tc');
      expect((await rawExchange(api.baseUrl, `${put(txid, 'Transfer-Encoding: Chunked\r\n')}\r\n${framing}`)).status).toBe(201);
    });

    it('local mode answers only names of this machine: a page rebinding its own name to 127.0.0.1 gets 403, not the sandbox secret', async () => {
      for (const host of ['attacker.example', 'attacker.example:80', 'localhost.attacker.example']) {
        const answer = await rawExchange(api.baseUrl, `GET /sandbox/session HTTP/1.1\r\nHost: ${host}\r\n\r\n`, { closeWaitMs: 0 });
        expect([host, answer.status, answer.body.type]).toEqual([host, 403, 'https://pix.bcb.gov.br/api/v2/error/AcessoNegado']);
        expect(JSON.stringify(answer.body)).not.toContain(api.client.secret);
      }
      for (const host of ['localhost', 'localhost:8080', 'app.localhost', '127.0.0.1:9', '[::1]:9', '10.0.0.7'])
        expect([host, (await rawExchange(api.baseUrl, `GET /health HTTP/1.1\r\nHost: ${host}\r\n\r\n`, { closeWaitMs: 0 })).status]).toEqual([host, 200]);
    });

    it('the token endpoint answers these refusals in RFC 6749 JSON, as OAuth clients read them (a fuzz found problem+json), and an absolute-form target for another machine gets 403', async () => {
      const basic = `Authorization: Basic ${Buffer.from(`${api.client.clientId}:${api.client.secret}`).toString('base64')}\r\n`;
      const form = 'grant_type=client_credentials';
      const token = (headers: string) => `POST /oauth/token HTTP/1.1\r\n${headers}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n${form}`;
      for (const [headers, status] of [
        [`Host: localhost\r\n${basic}${basic}`, 400],
        [`Host: evil.example\r\n${basic}`, 403],
        [`Host: localhost\r\n${basic}Expect: foo\r\n`, 417],
      ] as const) {
        const answer = await rawExchange(api.baseUrl, token(headers), { closeWaitMs: 0 });
        expect([answer.status, answer.headers['content-type'], answer.body.error]).toEqual([status, 'application/json; charset=utf-8', 'invalid_request']);
        expect(answer.body.error_description).toEqual(expect.any(String));
      }
      const rebound = await rawExchange(api.baseUrl, 'GET http://evil.example/sandbox/session HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', { closeWaitMs: 0 });
      expect([rebound.status, JSON.stringify(rebound.body).includes(api.client.secret)]).toEqual([403, false]);
    });

    it('refuses a duplicated Host on the unprefixed routes too', async () => {
      expectClosingProblem(await rawExchange(api.baseUrl, 'GET /health HTTP/1.1\r\nHost: a.test\r\nhost: b.test\r\n\r\n'), 400, 'RequisicaoInvalida');
    });
  });

  describe('every route answers the same with or without one trailing slash', () => {
    /** The answer's status and body with what differs between two calls (ids, clocks) taken out. */
    const comparable = (r: { status: number; body: any }) =>
      JSON.parse(JSON.stringify({ status: r.status, body: r.body }), (key, value) => (['correlationId', 'access_token', 'horario', 'endToEndId'].includes(key) ? '*' : value));
    const slash = (path: string) => path.replace(/(\?|$)/, '/$1');
    /** Through the harness's path, but with one trailing slash; validated as the path without it. */
    const slashed = async (method: string, path: string, body?: unknown) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
      const r = await fetch(`${api.baseUrl}${api.config.basePath}${slash(path)}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await r.text();
      const parsed = text ? JSON.parse(text) : undefined;
      validator.expectValidResponse({ method, path: path.split('?')[0], status: r.status, contentType: r.headers.get('content-type') ?? undefined, body: text === '' ? text : parsed });
      return { status: r.status, body: parsed };
    };
    const both = async (method: string, path: string) => [await api.request(method, path), await slashed(method, path)];
    const inicio = '2000-01-01T00:00:00Z';
    const fim = '2100-01-01T00:00:00Z';

    it('/v2/cobv: list (the PSP SDK case), one, create, revise', async () => {
      const txid = newTxid('ts');
      const created = await slashed('PUT', `/cobv/${txid}`, validCobV());
      expect(created.status).toBe(201);
      const [list, listSlash] = await both('GET', `/cobv?inicio=${inicio}&fim=${fim}`);
      expect(list.status).toBe(200);
      expect(comparable(listSlash)).toEqual(comparable(list));
      const [one, oneSlash] = await both('GET', `/cobv/${txid}`);
      expect(one.status).toBe(200);
      expect(comparable(oneSlash)).toEqual(comparable(one));
      const revised = await slashed('PATCH', `/cobv/${txid}`, { solicitacaoPagador: 'Revisada com barra final.' });
      expect(revised.status).toBe(200);
      expect((await api.request('GET', `/cobv/${txid}`)).body.solicitacaoPagador).toBe('Revisada com barra final.');
    });

    it('/v2/lotecobv: create, one, list', async () => {
      const id = 7_000_000 + Math.floor(Math.random() * 1_000_000);
      const created = await slashed('PUT', `/lotecobv/${id}`, { descricao: 'Com barra', cobsv: [{ txid: newTxid('lt'), ...validCobV() }] });
      expect(created.status).toBe(202);
      // Compared once the batch has settled, so both answers describe the same state.
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50)))
        if (!JSON.stringify((await api.request('GET', `/lotecobv/${id}`)).body).includes('EM_PROCESSAMENTO')) break;
      const [one, oneSlash] = await both('GET', `/lotecobv/${id}`);
      expect(one.status).toBe(200);
      expect(comparable(oneSlash)).toEqual(comparable(one));
      const [list, listSlash] = await both('GET', `/lotecobv?inicio=${inicio}&fim=${fim}`);
      expect(list.status).toBe(200);
      expect(comparable(listSlash)).toEqual(comparable(list));
    });

    it('/v2/webhook: register, one, list, remove', async () => {
      expect((await slashed('PUT', `/webhook/${LOCAL_KEY}`, { webhookUrl: 'http://127.0.0.1:9/hook' })).status).toBe(200);
      const [one, oneSlash] = await both('GET', `/webhook/${LOCAL_KEY}`);
      expect(one.status).toBe(200);
      expect(comparable(oneSlash)).toEqual(comparable(one));
      const [list, listSlash] = await both('GET', `/webhook?inicio=${inicio}&fim=${fim}`);
      expect(list.status).toBe(200);
      expect(comparable(listSlash)).toEqual(comparable(list));
      expect((await slashed('DELETE', `/webhook/${LOCAL_KEY}`)).status).toBe(204);
      expect((await api.request('GET', `/webhook/${LOCAL_KEY}`)).status).toBe(404);
    });

    it('/v2/pix: list and one', async () => {
      const [list, listSlash] = await both('GET', `/pix?inicio=${inicio}&fim=${fim}`);
      expect(list.status).toBe(200);
      expect(comparable(listSlash)).toEqual(comparable(list));
      const [one, oneSlash] = await both('GET', '/pix/E12345678202611230000abcdefghijk');
      expect(one.body.type).toMatch(/PixNaoEncontrado$/);
      expect(comparable(oneSlash)).toEqual(comparable(one));
    });

    it('the routes outside the base path: /health, /oauth/token, /sandbox/*, /notifier/*', async () => {
      const call = async (method: string, path: string, init: RequestInit = {}) => {
        const r = await fetch(`${api.baseUrl}${path}`, { method, ...init });
        const text = await r.text();
        return { status: r.status, body: text ? JSON.parse(text) : undefined };
      };
      for (const [method, path, init] of [
        ['GET', '/health', {}],
        ['POST', '/oauth/token', { headers: { authorization: `Basic ${Buffer.from(`${api.client.clientId}:${api.client.secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' }],
        // A body the sandbox refuses by name: the route was found, and nothing is paid.
        ['POST', '/sandbox/cash-in', { headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"naoPrevisto":1}' }],
        ['GET', '/notifier/stats', { headers: { authorization: `Bearer ${token}` } }],
      ] as [string, string, RequestInit][]) {
        const plain = await call(method, path, init);
        const slashed = await call(method, `${path}/`, init);
        expect([path, plain.status]).not.toEqual([path, 404]);
        expect([path, comparable(slashed)]).toEqual([path, comparable(plain)]);
      }
    });

    it('still answers 404 to two trailing slashes and to unknown paths, as a problem', async () => {
      for (const path of ['/cobv//', '/nada/', '/cobv/x/y/']) {
        const r = await api.request('GET', path);
        expect(r.status).toBe(404);
        expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      }
    });
  });
});

describe('HTTP edge of the notifier (its operator server, compiled, in its own process)', () => {
  let db: TestDatabase;
  let notifier: NotifierProcess | undefined;
  const bearer = `Authorization: Bearer ${OPERATOR_TOKEN}\r\n`;

  beforeAll(async () => {
    db = await createTestDatabase('http_edge_notifier');
    const brokers = kafkaBrokers();
    if (!brokers) throw new Error('KAFKA_BROKERS is not set: run through `npm test`, which provisions a broker');
    notifier = await startNotifierProcess({ DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(','), NOTIFIER_PORT: String(await freePort()), NOTIFIER_GROUP_ID: `edge-${Date.now()}` });
  });
  afterAll(async () => {
    await notifier?.stop();
    await db?.drop();
  });

  it('answers parser errors as problems and closes the connection', async () => {
    const base = notifier!.base;
    expectClosingProblem(await rawExchange(base, `GET /notifier/stats HTTP/1.1\r\nHost: n.test\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`), 431, 'RequisicaoInvalida');
    expectClosingProblem(await rawExchange(base, 'FOO /health HTTP/1.1\r\nHost: n.test\r\n\r\n'), 400, 'RequisicaoInvalida');
    expectClosingProblem(await rawExchange(base, Buffer.from('GET /hea\0lth HTTP/1.1\r\nHost: n.test\r\n\r\n')), 400, 'RequisicaoInvalida');
    expectClosingProblem(await rawExchange(base, `POST /notifier/resend HTTP/1.1\r\nHost: n.test\r\n${bearer}Content-Type: application/json\r\nContent-Length: x\r\n\r\n{}`), 400, 'RequisicaoInvalida');
    expectClosingProblem(await rawExchange(base, `POST /notifier/resend HTTP/1.1\r\nHost: n.test\r\n${bearer}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`), 400, 'RequisicaoInvalida');
  });

  it('refuses a duplicated Host or Authorization (the valid one first)', async () => {
    const base = notifier!.base;
    expectClosingProblem(await rawExchange(base, `GET /notifier/stats HTTP/1.1\r\nHost: n.test\r\nHost: o.test\r\n${bearer}\r\n`), 400, 'RequisicaoInvalida');
    expectClosingProblem(await rawExchange(base, `GET /notifier/stats HTTP/1.1\r\nHost: n.test\r\n${bearer}Authorization: Bearer x\r\n\r\n`), 400, 'RequisicaoInvalida');
    expect((await rawExchange(base, `GET /notifier/stats HTTP/1.1\r\nHost: n.test\r\n${bearer}\r\n`, { closeWaitMs: 0 })).status).toBe(200);
  });

  it('answers its own refusals (no token, unknown path, bad body) as problems', async () => {
    const base = notifier!.base;
    const noToken = await rawExchange(base, 'GET /notifier/stats HTTP/1.1\r\nHost: n.test\r\n\r\n', { closeWaitMs: 0 });
    expectProblem(noToken, 401);
    expect(noToken.body.type).toBe('about:blank');
    expectProblem(await rawExchange(base, `GET /nada HTTP/1.1\r\nHost: n.test\r\n${bearer}\r\n`, { closeWaitMs: 0 }), 404, 'NaoEncontrado');
    expectProblem(await rawExchange(base, `GET /notifier/notifications/x HTTP/1.1\r\nHost: n.test\r\n${bearer}\r\n`, { closeWaitMs: 0 }), 404, 'NaoEncontrado');
    expectProblem(await rawExchange(base, `POST /notifier/resend HTTP/1.1\r\nHost: n.test\r\n${bearer}Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`, { closeWaitMs: 0 }), 400, 'RequisicaoInvalida');
    expectProblem(await rawExchange(base, `POST /notifier/resend HTTP/1.1\r\nHost: n.test\r\n${bearer}Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{x`, { closeWaitMs: 0 }), 400, 'RequisicaoInvalida');
  });

  it('answers every route the same with or without one trailing slash', async () => {
    for (const path of ['/health', '/notifier/stats']) {
      const [plain, slashed] = await Promise.all([path, `${path}/`].map((p) => fetch(`${notifier!.base}${p}`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })));
      expect([path, plain.status]).toEqual([path, 200]);
      expect([path, slashed.status]).toEqual([path, 200]);
      expect(Object.keys((await slashed.json()) as object).sort()).toEqual(Object.keys((await plain.json()) as object).sort());
    }
  });
});
