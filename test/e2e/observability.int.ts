import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { freePort, startApiProcess, TEST_CLIENT, type ApiProcess } from '../support/api-process';
import { newTxid, validCobV } from '../support/api-harness';
import { startNotifierProcess, type NotifierProcess } from '../support/notifier-process';

// The API as production runs it (its own process, LOG_FORMAT defaulting to json, METRICS_TOKEN):
// requests carrying a client secret, bearer tokens, a CPF, a CNPJ and a payer's name, on success
// and refusal paths alike; then every output line must be a JSON object with the named fields,
// none of those values may appear anywhere in it, and /metrics must show the traffic.

const METRICS_TOKEN = 'metrics-token-for-the-e2e-0123456789';
const CPF = '52998224725';
const CNPJ = '11222333000181';
const BAD_CPF = '52998224724'; // wrong check digits: refused, and echoed in violacoes
const PAYER = 'Zacarias Quintanilha Observado';
const OTHER_PAYER = 'Empresa Secreta Fictícia Ltda';
const WRONG_SECRET = 'not-the-secret-but-still-a-secret-8734';
const FORGED_BEARER = 'forged.bearer.token-value-99120';

describe('production logs and metrics', () => {
  let db: TestDatabase;
  let api: ApiProcess;
  let origin: string;

  beforeAll(async () => {
    db = await createTestDatabase('observability_e2e');
    api = await startApiProcess(db.url, await freePort(), { METRICS_TOKEN, LOG_LEVEL: 'debug' });
    origin = api.base.replace(/\/v2$/, '');
  }, 60_000);
  afterAll(async () => {
    await api?.kill('SIGTERM');
    await db?.drop();
  });

  const metricsText = async () => {
    const r = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/plain');
    return r.text();
  };

  it("names the real paths in the start-up route list (Nest's RoutesResolver put /v2 before /health and /qr)", () => {
    const msgs = api
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(msgs).toEqual(expect.arrayContaining(['Mapped {/health, GET} route', 'Mapped {/qr/v2/jwks, GET} route', 'Mapped {/v2/cobv/:txid, PUT} route']));
    expect(msgs.filter((m) => /\/v2\/(health|qr|oauth)\b/.test(m))).toEqual([]);
  });

  it('answers /metrics only with the token', async () => {
    expect((await fetch(`${origin}/metrics`)).status).toBe(401);
    expect((await fetch(`${origin}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token-wrong' } })).status).toBe(401);
    const text = await metricsText();
    // Prometheus text format: comments, or `name{labels} value`.
    for (const line of text.split('\n').filter(Boolean)) expect(line).toMatch(/^(# (HELP|TYPE) [a-z_:][a-z0-9_:]* .*|[a-z_:][a-z0-9_:]*(\{([a-z_][a-z0-9_]*="([^"\\]|\\.)*",?)*\})? -?[0-9.e+-]+|[a-z_:][a-z0-9_:]*(\{.*\})? (NaN|\+Inf|-Inf))$/i);
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('exposes every series the Grafana dashboard and the alert rules in docker/ use (API and notifier together)', async () => {
    let notifier: NotifierProcess | undefined;
    let notifierText: string;
    try {
      const port = await freePort();
      notifier = await startNotifierProcess({ DATABASE_URL: db.url, KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:19092', NOTIFIER_PORT: String(port), METRICS_TOKEN }, false);
      const url = `http://127.0.0.1:${port}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      const r = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(r.status).toBe(200);
      notifierText = await r.text();
      expect(notifierText).toMatch(/pix_webhook_notifications_pending\{service="pix-notifier"\} 0/);
      expect(notifierText).toMatch(/pix_webhook_oldest_pending_age_seconds\{service="pix-notifier"\} 0/);
    } finally {
      await notifier?.stop();
    }
    const text = (await metricsText()) + notifierText;
    const dashboard = readFileSync(path.join(__dirname, '../../docker/grafana/pix-dashboard.json'), 'utf8');
    const alerts = parse(readFileSync(path.join(__dirname, '../../docker/prometheus/alerts.yml'), 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] };
    expect(alerts.groups[0].rules.map((r) => r.alert)).toEqual(expect.arrayContaining(['PixProjectionLagging', 'PixOldestNotificationPending', 'PixDeadNotifications', 'PixHttp5xxRate', 'PixDependencyDown', 'PixInstanceDown', 'PixCashInsDeadLettered', 'PixCashInsForClosedCharges']));
    const used = new Set([...(dashboard + alerts.groups.flatMap((g) => g.rules.map((r) => r.expr)).join(' ')).matchAll(/\b((?:pix|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1].replace(/_(bucket|sum|count)$/, '')));
    const exposed = new Set([...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]));
    expect([...used].filter((name) => !exposed.has(name))).toEqual([]);
  }, 60_000);

  it('logs JSON lines without secrets, tokens, documents or names, on success and refusal paths', async () => {
    const basic = (secret: string) => `Basic ${Buffer.from(`${TEST_CLIENT.clientId}:${secret}`).toString('base64')}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await fetch(`${origin}/oauth/token`, { method: 'POST', headers: { ...form, authorization: basic(WRONG_SECRET) }, body: 'grant_type=client_credentials' })).status).toBe(401);
    expect((await fetch(`${origin}/oauth/token`, { method: 'POST', headers: form, body: `grant_type=client_credentials&client_id=${TEST_CLIENT.clientId}&client_secret=${WRONG_SECRET}` })).status).toBe(401);
    expect((await fetch(`${api.base}/cobv/${newTxid('f')}`, { headers: { authorization: `Bearer ${FORGED_BEARER}` } })).status).toBe(401);
    const put = (txid: string, body: unknown) => fetch(`${api.base}/cobv/${txid}?cpf=${CPF}`, { method: 'PUT', headers: api.headers({ 'content-type': 'application/json' }), body: JSON.stringify(body) });
    const txid = newTxid('o');
    expect((await put(txid, validCobV({ devedor: { cpf: CPF, nome: PAYER } }))).status).toBe(201);
    expect((await put(newTxid('p'), validCobV({ devedor: { cnpj: CNPJ, nome: OTHER_PAYER } }))).status).toBe(201);
    // Refused: the problem echoes the bad CPF in violacoes; the log must not.
    const refused = await put(newTxid('r'), validCobV({ devedor: { cpf: BAD_CPF, nome: PAYER } }));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(BAD_CPF);
    expect((await fetch(`${api.base}/cobv/${txid}`, { headers: api.headers() })).status).toBe(200);
    expect((await fetch(`${api.base}/cobv?inicio=2020-01-01T00:00:00Z&fim=2030-01-01T00:00:00Z&cpf=${CPF}`, { headers: api.headers() })).status).toBe(200);

    const text = await metricsText();
    expect(text).toMatch(/pix_http_requests_total\{method="PUT",route="\/v2\/cobv\/:txid",status="201",service="pix-api"\} 2/);
    expect(text).toMatch(/pix_http_request_duration_seconds_bucket\{le="\+Inf",service="pix-api",method="PUT",route="\/v2\/cobv\/:txid",status="201"\} 2/);
    expect(text).toMatch(/pix_event_store_appends_total\{store="postgresql",outcome="ok",service="pix-api"\} [1-9]/);
    expect(text).toMatch(/pix_oauth_tokens_issued_total\{service="pix-api"\} [1-9]/);
    expect(text).toMatch(/pix_oauth_tokens_refused_total\{error="invalid_client",service="pix-api"\} 2/);
    expect(text).toMatch(/pix_projection_lag_events\{projection="cobv",service="pix-api"\} \d+/);
    expect(text).toMatch(/pix_projection_lag_seconds\{projection="cobv",service="pix-api"\} [\d.]+/);
    expect(text).toMatch(/pix_batch_requests\{status="EM_PROCESSAMENTO",service="pix-api"\} 0/);
    // Readiness's probes as series; no KAFKA_BROKERS here, so no kafka one.
    expect(text.split('\n').filter((l) => l.startsWith('pix_dependency_up'))).toEqual(['pix_dependency_up{dependency="database",service="pix-api"} 1']);
    // Bounded labels: no txid, document or URL in any series.
    for (const value of [txid, CPF, CNPJ, '?']) expect(text.split('\n').filter((l) => !l.startsWith('#') && l.includes(value))).toEqual([]);

    await new Promise((r) => setTimeout(r, 300)); // the last access lines
    const lines = api.output().split('\n').filter((l) => l.trim() !== '');
    expect(lines.length).toBeGreaterThan(10);
    const parsed = lines.map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${l}`);
      }
    });
    for (const p of parsed) {
      expect(typeof p.time).toBe('string');
      expect(new Date(p.time as string).toISOString()).toBe(p.time);
      expect(['debug', 'info', 'warn', 'error', 'fatal']).toContain(p.level);
      expect(typeof p.msg).toBe('string');
    }
    const access = parsed.filter((p) => p.context === 'Access');
    const putLine = access.find((p) => p.route === '/v2/cobv/:txid' && p.method === 'PUT' && p.status === 201);
    expect(putLine).toMatchObject({ correlationId: expect.any(String), clientId: TEST_CLIENT.clientId, receiverId: 'local', durationMs: expect.any(Number) });
    expect(access.find((p) => p.route === '/oauth/token' && p.status === 401)).toMatchObject({ correlationId: expect.any(String), durationMs: expect.any(Number) });
    const all = api.output();
    for (const secret of [TEST_CLIENT.secret, WRONG_SECRET, FORGED_BEARER, api.token, CPF, CNPJ, BAD_CPF, PAYER, OTHER_PAYER, METRICS_TOKEN]) expect({ secret, found: all.includes(secret) }).toEqual({ secret, found: false });
  });
});
