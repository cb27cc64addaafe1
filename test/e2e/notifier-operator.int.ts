import { Pool } from 'pg';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { NotificationOutbox } from '@pix/webhook-delivery';
import { freePort } from '../support/api-process';
import { kafkaBrokers } from '../support/kafka-client';
import { startNotifierProcess, type NotifierProcess } from '../support/notifier-process';

// The notifier's operator endpoints show every receiver's notifications: closed unless the
// caller holds the operator token, and shut entirely when none is configured.
jest.setTimeout(90_000);

const TOKEN = 'operator-token-0123456789abcdef';

describe('notifier operator endpoints', () => {
  let db: TestDatabase;
  let withToken: NotifierProcess | undefined;
  let withoutToken: NotifierProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('notifier_ops');
    const brokers = kafkaBrokers();
    if (!brokers) throw new Error('KAFKA_BROKERS is not set: run through `npm test`, which provisions a broker');
    const env = { DATABASE_URL: db.url, KAFKA_BROKERS: brokers.join(',') };
    withToken = await startNotifierProcess({ ...env, NOTIFIER_PORT: String(await freePort()), NOTIFIER_OPERATOR_TOKEN: TOKEN, NOTIFIER_GROUP_ID: 'ops-a' });
    // Empty overrides the test support's default token: this process runs with none configured.
    withoutToken = await startNotifierProcess({ ...env, NOTIFIER_PORT: String(await freePort()), NOTIFIER_OPERATOR_TOKEN: '', NOTIFIER_GROUP_ID: 'ops-b' });
  });
  afterAll(async () => {
    await withToken?.stop();
    await withoutToken?.stop();
    await db?.drop();
  });

  const call = (n: NotifierProcess, path: string, authorization?: string) =>
    fetch(`${n.base}${path}`, { headers: authorization ? { authorization } : {} }).then((r) => r.status);

  it('lets probes read /health without a token', async () => {
    expect(await call(withToken!, '/health')).toBe(200);
    expect(await call(withoutToken!, '/health')).toBe(200);
  });

  it('asks for the operator token, refuses a wrong one and admits the right one', async () => {
    expect(await call(withToken!, '/notifier/stats')).toBe(401);
    expect(await call(withToken!, '/notifier/stats', `Bearer ${TOKEN}x`)).toBe(401);
    expect(await call(withToken!, '/notifier/stats', TOKEN)).toBe(401);
    expect(await call(withToken!, '/notifier/stats', `Bearer ${TOKEN}`)).toBe(200);
  });

  it('asks for it however the path is spelled: the router decodes what a prefix test on the URL did not', async () => {
    for (const path of ['/%6Eotifier/stats', '/%6eotifier/notifications?limit=1', '/notifier%2Fstats', '/NOTIFIER/stats', '/notifier/stats/', '//notifier/stats']) {
      const status = await call(withToken!, path);
      expect([path, [401, 404].includes(status) ? 'refused' : status]).toEqual([path, 'refused']);
    }
    expect(await call(withToken!, '/%6Eotifier/stats', `Bearer ${TOKEN}`)).toBe(200);
  });

  it('echoes the correlation id and writes it on the access line, never the token', async () => {
    const r = await fetch(`${withToken!.base}/notifier/stats`, { headers: { authorization: `Bearer ${TOKEN}`, 'x-correlation-id': 'ops-check-42' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-correlation-id')).toBe('ops-check-42');
    // Production logs are JSON lines (LOG_FORMAT defaults to json): the access line carries the id as a field.
    for (const deadline = Date.now() + 5000; !withToken!.output().includes('"correlationId":"ops-check-42"') && Date.now() < deadline; ) await new Promise((done) => setTimeout(done, 50));
    const access = withToken!.output().split('\n').filter((l) => l.includes('"correlationId":"ops-check-42"')).map((l) => JSON.parse(l));
    expect(access).toEqual([expect.objectContaining({ context: 'Access', msg: 'GET /notifier/stats 200 ' + access[0]?.durationMs?.toFixed(1) + 'ms', route: '/notifier/stats', status: 200 })]);
    expect(withToken!.output()).not.toContain(TOKEN);
  });

  it('reads resend bodies strictly: duplicates, NUL, unknown members and wrong shapes are 400 problems', async () => {
    const resend = async (body: string) => {
      const r = await fetch(`${withToken!.base}/notifier/resend`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body });
      return { status: r.status, type: r.headers.get('content-type'), body: (await r.json()) as any };
    };
    for (const body of ['{"endToEndIds":["E\\u0000"]}', '{"ids":[],"ids":["x"]}', '{"valueOf":1,"endToEndIds":["E12345678202611230000abcdefghijk"]}', '{"endToEndIds":"E1"}', '{"inicio":"ontem"}', '{}']) {
      const r = await resend(body);
      expect([body, r.status, r.type, r.body.type]).toEqual([body, 400, expect.stringMatching(/^application\/problem\+json/), 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida']);
    }
    expect((await resend('{"endToEndIds":["E12345678202611230000abcdefghijk"]}')).body).toEqual({ reenviadas: 0 });
    // A swapped range is refused rather than answered {"reenviadas":0}.
    const swapped = await resend('{"inicio":"2026-11-23T12:00:00Z","fim":"2026-11-23T11:00:00Z"}');
    expect([swapped.status, swapped.body.type, swapped.body.violacoes]).toEqual([400, 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida', [expect.objectContaining({ propriedade: 'body.fim' })]]);
  });

  it('refuses a resend body over the size limit with 413 RequisicaoInvalida told in Portuguese, as the API does', async () => {
    const body = JSON.stringify({ endToEndIds: Array.from({ length: 120_000 }, (_, i) => `E12345678202611230000${String(i).padStart(11, '0')}`) });
    const r = await fetch(`${withToken!.base}/notifier/resend`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body });
    expect(r.status).toBe(413);
    expect(await r.json()).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida', status: 413, detail: 'O corpo da requisição excede o tamanho máximo permitido.' });
  });

  it("never shows a stored webhook URL's query or userinfo, in rows written whole before that rule either", async () => {
    const pool = testPool(db.url, 1);
    try {
      const outbox = await NotificationOutbox.create(pool);
      const e2e = 'E12345678202611230000legacyurl01';
      const { id } = await outbox.enqueue({ endToEndId: e2e, chave: 'key-legacy-url', txid: 'txidlegacyurl0000000000001', pix: { endToEndId: e2e, txid: 'txidlegacyurl0000000000001', chave: 'key-legacy-url', valor: '1.00', horario: '2026-11-23T10:00:00.000Z' } });
      await pool.query(
        `INSERT INTO webhook_outbox_attempts (notification_id, attempt, attempted_at, url, status_code, latency_ms, error, outcome)
         VALUES ($1, 1, now(), 'https://u:QPASSQ@hooks.example:8443/cb?tok=QSECRETQ/pix', 500, 3, 'HTTP 500', 'retry')`,
        [id],
      );
      const get = (path: string) => fetch(`${withToken!.base}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } }).then(async (r) => [r.status, await r.text()] as const);
      for (const [status, text] of [await get(`/notifier/notifications/${id}`), await get('/notifier/notifications?limit=200')]) {
        expect(status).toBe(200);
        expect(text).toContain('"url":"https://hooks.example:8443/cb?…"');
        expect(text).not.toMatch(/QSECRETQ|QPASSQ/);
      }
    } finally {
      await pool.end();
    }
  });

  it('lists by status with a cursor, refuses unknown or bad parameters by name, and resends the dead ones of a period', async () => {
    const get = async (path: string) => {
      const r = await fetch(`${withToken!.base}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      return { status: r.status, body: (await r.json()) as any };
    };
    // Two notifications written as the outbox holds them, one dead and one delivered (no worker would touch either).
    const pool = new Pool({ connectionString: db.url, max: 1 });
    const row = (id: string, e2e: string, status: string) =>
      pool.query(
        `INSERT INTO webhook_outbox (id, end_to_end_id, chave, txid, body, status, next_attempt_at, pending_since, created_at, updated_at)
         VALUES ($1, $2, 'ops-key', 'txid', '{"pix":[{}]}', $3, now(), now(), now(), now())`,
        [id, e2e, status],
      );
    await row('00000000-0000-4000-8000-00000000000d', 'E12345678202611270000000000000dead', 'dead');
    await row('00000000-0000-4000-8000-0000000000de', 'E1234567820261127000000000000deliv', 'delivered');
    await pool.end();
    const dead = await get('/notifier/notifications?status=dead');
    expect([dead.status, dead.body.notificacoes.map((n: any) => [n.id, n.status]), dead.body.proximo]).toEqual([200, [['00000000-0000-4000-8000-00000000000d', 'dead']], null]);
    const first = await get('/notifier/notifications?limit=1');
    expect([first.body.notificacoes.length, first.body.proximo]).toEqual([1, expect.stringMatching(/^\d{4}-.*Z,[0-9a-f-]{36}$/)]);
    const second = await get(`/notifier/notifications?limit=1&before=${encodeURIComponent(first.body.proximo)}`);
    expect(second.body.notificacoes.map((n: any) => n.id)).not.toContain(first.body.notificacoes[0].id);
    for (const [query, propriedade] of [['offset=5', 'offset'], ['status=morta', 'status'], ['before=ontem', 'before'], ['limit=201', 'limit'], ['status=dead&status=pending', 'status']]) {
      const r = await get(`/notifier/notifications?${query}`);
      expect([query, r.status, r.body.type, r.body.violacoes]).toEqual([query, 400, 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida', [expect.objectContaining({ propriedade })]]);
    }
    const resend = await fetch(`${withToken!.base}/notifier/resend`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'dead', inicio: '2026-01-01T00:00:00Z' }),
    });
    expect([resend.status, await resend.json()]).toEqual([202, { reenviadas: 1 }]);
    expect((await get('/notifier/notifications/00000000-0000-4000-8000-0000000000de')).body.status).toBe('delivered');
  });

  it('keeps the operator endpoints shut when no token is configured', async () => {
    expect(await call(withoutToken!, '/notifier/stats', `Bearer ${TOKEN}`)).toBe(403);
    expect(withoutToken!.output()).toContain('NOTIFIER_OPERATOR_TOKEN');
  });
});
