import { Client } from 'pg';
import type { PixRecebidoMessage } from '@pix/contracts';
import { newTxid, validCobV } from '../support/api-harness';
import { freePort, startApiProcess, type ApiProcess } from '../support/api-process';
import { cashIn, contractClient, inPool, PRODUCTION_KEY } from '../support/cash-in-fixtures';
import { PspCore } from '../support/kafka-client';
import { startNotifierProcess, type NotifierProcess } from '../support/notifier-process';
import { startOwnPostgres, type OwnPostgres } from '../support/own-postgres';
import { Receiver, selfSignedCertificate } from '../support/receiver';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startKafka } = require('../../tools/kafka/kafka.js') as { startKafka(o: { port: number }): Promise<{ brokers: string; stop(): Promise<void> }> };

jest.setTimeout(120_000);

/** After PostgreSQL accepts connections again, every API serves writes within this bound. */
const RECOVERY_BOUND_MS = 10_000;
/** After PostgreSQL is back, every cash-in published before or during the outage is settled and notified within this bound. */
const CASH_IN_BOUND_MS = 20_000;
const OUTAGE_MS = 4000;
const METRICS_TOKEN = 'metrics-token-for-the-faults-e2e-0123456789';

interface Outcome {
  txid: string;
  api: number;
  status: number | 'no answer';
  type?: string;
  retryAfter?: string | null;
  at: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (p: { child: { exitCode: number | null; signalCode: string | null } }) => p.child.exitCode === null && p.child.signalCode === null;

describe('faults: PostgreSQL killed with SIGKILL under load and restarted', () => {
  let pg: OwnPostgres;
  // A broker of our own: consumer groups and topics start empty (no other suite's backlog, no lock).
  let kafka: { brokers: string; stop(): Promise<void> };
  let tls: ReturnType<typeof selfSignedCertificate>;
  let receiver: Receiver;
  let psp: PspCore;
  const apis: ApiProcess[] = [];
  const notifiers: NotifierProcess[] = [];

  beforeAll(async () => {
    [pg, kafka] = await Promise.all([startOwnPostgres(), startKafka({ port: 0 })]);
    tls = selfSignedCertificate();
    receiver = await Receiver.start({ tls });
    for (let i = 0; i < 2; i++) apis.push(await startApiProcess(pg.url, await freePort(), { KAFKA_BROKERS: kafka.brokers, METRICS_TOKEN }));
    // The notifiers' claim loops and stores hold pooled clients when the server dies (they used to exit).
    for (let i = 0; i < 2; i++)
      notifiers.push(await startNotifierProcess({ DATABASE_URL: pg.url, KAFKA_BROKERS: kafka.brokers, NOTIFIER_PORT: String(await freePort()), WEBHOOK_POLL: '50ms', WEBHOOK_CA: tls.caPath, METRICS_TOKEN }));
    psp = await PspCore.connect([kafka.brokers]);
  }, 120_000);
  afterAll(async () => {
    await psp?.disconnect().catch(() => undefined);
    for (const p of [...apis, ...notifiers]) await p.kill();
    await receiver?.close();
    await kafka?.stop();
    await pg?.stop();
    tls?.remove();
  }, 60_000);

  it('no process exits, the outage answers 503 ServicoIndisponivel (never 500), writes resume within the bound, every 2xx write is stored exactly once, every cash-in settled and notified once', async () => {
    const client = contractClient(apis[0].base, apis[0].headers());
    expect((await client.request('PUT', `/webhook/${PRODUCTION_KEY}`, { webhookUrl: `${receiver.url}/hook` })).status).toBe(200);
    const txids = await inPool(Array.from({ length: 30 }), 6, (_, i) => contractClient(apis[i % 2].base, apis[i % 2].headers()).charge());
    // Cash-ins before, during and after the outage (the broker is up: each is acknowledged at once).
    const published: PixRecebidoMessage[] = [];
    const publish = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const message = cashIn(txids[published.length]);
        await psp.publish(message);
        published.push(message);
      }
    };
    await publish(10);
    const outcomes: Outcome[] = [];
    let loading = true;
    const put = async (api: number) => {
      const txid = newTxid('f');
      const at = Date.now();
      try {
        const r = await fetch(`${apis[api].base}/cobv/${txid}`, {
          method: 'PUT',
          headers: apis[api].headers({ 'content-type': 'application/json' }),
          body: JSON.stringify(validCobV()),
          signal: AbortSignal.timeout(15_000),
        });
        const body: any = await r.json().catch(() => undefined);
        outcomes.push({ txid, api, status: r.status, type: body?.type, retryAfter: r.headers.get('retry-after'), at });
      } catch {
        outcomes.push({ txid, api, status: 'no answer', at });
      }
    };
    const workers = Array.from({ length: 8 }, async (_, w) => {
      while (loading) {
        await put(w % 2);
        await sleep(5);
      }
    });

    await sleep(1500);
    const killedAt = Date.now();
    await pg.kill();
    await publish(10);
    await sleep(OUTAGE_MS / 2);
    const readyDuring = await Promise.all(apis.map((a) => fetch(`${a.base.replace(/\/v2$/, '')}/health/ready`).then((r) => r.status)));
    const notifiersDuring = await Promise.all(notifiers.flatMap((n) => ['/health', '/health/ready'].map((p) => fetch(`${n.base}${p}`).then((r) => `${r.status} ${r.headers.get('retry-after')}`))));
    // Metrics: the database is down, and the gauges read from it are absent (they showed 0).
    const metricsOf = async (origin: string) => (await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const seriesOf = (text: string) =>
      text
        .split('\n')
        .filter((l) => /^(pix_dependency_up|pix_webhook_notifications_|pix_webhook_oldest_pending|pix_batch_requests)/.test(l))
        .map((l) => l.replace(/,?service="[^"]*"/, '').replace('{}', ''));
    const metricsDuring = await Promise.all([metricsOf(apis[0].base.replace(/\/v2$/, '')), metricsOf(notifiers[0].base)]).then((texts) => texts.map(seriesOf));
    await sleep(OUTAGE_MS / 2);
    await pg.restart();
    const restartedAt = Date.now();
    await publish(10);
    const recoveredIn: number[] = [];
    for (let api = 0; api < apis.length; api++) {
      for (;;) {
        const ok = outcomes.find((o) => o.api === api && o.at >= restartedAt && o.status === 201);
        if (ok) {
          recoveredIn.push(ok.at - restartedAt);
          break;
        }
        if (Date.now() - restartedAt > RECOVERY_BOUND_MS + 5000) break;
        await sleep(50);
      }
    }
    await sleep(1000);
    loading = false;
    await Promise.all(workers);

    // No process exited.
    expect([...apis, ...notifiers].filter((p) => !alive(p)).map((p) => p.output().slice(-2000))).toEqual([]);
    // Every answer is a success or the contract's 503 with Retry-After; nothing else, no hang.
    const kinds = new Map<string, number>();
    for (const o of outcomes) {
      const kind = o.status === 201 ? '201' : o.status === 503 && o.type === 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel' && Number(o.retryAfter) > 0 ? '503 ServicoIndisponivel' : `${o.status} ${o.type}`;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    expect([...kinds.keys()].sort()).toEqual(['201', '503 ServicoIndisponivel']);
    expect(outcomes.filter((o) => o.status === 503 && o.at >= killedAt && o.at < restartedAt).length).toBeGreaterThan(0);
    expect(readyDuring).toEqual([503, 503]);
    expect(notifiersDuring).toEqual(Array(4).fill('503 2'));
    expect(metricsDuring).toEqual([
      ['pix_dependency_up{dependency="database"} 0', 'pix_dependency_up{dependency="kafka"} 1'],
      ['pix_dependency_up{dependency="database"} 0', 'pix_dependency_up{dependency="kafka"} 1'],
    ]);
    for (const n of notifiers) expect((await fetch(`${n.base}/health/ready`)).status).toBe(200);
    // Writes resume within the bound on every instance, and readiness says so.
    expect(recoveredIn).toHaveLength(2);
    for (const ms of recoveredIn) expect(ms).toBeLessThan(RECOVERY_BOUND_MS);
    for (const a of apis) expect((await fetch(`${a.base.replace(/\/v2$/, '')}/health/ready`)).status).toBe(200);

    // Every 2xx write is in the event store exactly once.
    const created = outcomes.filter((o) => o.status === 201).map((o) => o.txid);
    expect(created.length).toBeGreaterThan(20);
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    try {
      const { rows } = await c.query<{ txid: string; n: number }>(
        `SELECT split_part(stream_id, '/', 2) AS txid, count(*)::int AS n FROM es_events WHERE event_type = 'CobVCriada' AND split_part(stream_id, '/', 2) = ANY($1) GROUP BY 1`,
        [created],
      );
      expect(rows.filter((r) => r.n !== 1)).toEqual([]);
      expect(rows.length).toBe(created.length);
    } finally {
      await c.end();
    }
    // Every cash-in settled exactly once and notified once, within the bound after the restart.
    const e2es = published.map((m) => m.endToEndId);
    const settledOf = async () => {
      const c2 = new Client({ connectionString: pg.url });
      await c2.connect();
      try {
        return (await c2.query<{ e2e: string; n: number }>(`SELECT data->'pix'->>'endToEndId' AS e2e, count(*)::int AS n FROM es_events WHERE event_type = 'CobVConcluida' AND data->'pix'->>'endToEndId' = ANY($1) GROUP BY 1`, [e2es])).rows;
      } finally {
        await c2.end();
      }
    };
    let settled = await settledOf();
    for (; settled.length < e2es.length && Date.now() - restartedAt < CASH_IN_BOUND_MS; await sleep(250)) settled = await settledOf();
    const settledInMs = Date.now() - restartedAt;
    await receiver.waitUntil(() => e2es.every((e) => receiver.forEndToEndId(e).length > 0), Math.max(0, restartedAt + CASH_IN_BOUND_MS - Date.now()), 'every cash-in notified');
    const notifiedInMs = Math.max(...e2es.map((e) => receiver.forEndToEndId(e)[0].receivedAt)) - restartedAt;
    await sleep(1000); // a duplicate delivery would arrive now
    expect(settled.filter((r) => r.n !== 1)).toEqual([]);
    expect(settled.map((r) => r.e2e).sort()).toEqual([...e2es].sort());
    expect(e2es.filter((e) => receiver.forEndToEndId(e).length !== 1)).toEqual([]);
    console.log(JSON.stringify({ cashIns: e2es.length, settledAllInMs: settledInMs, notifiedAllInMs: notifiedInMs }));
    // The LISTEN connections came back, said once each way. Reconnection backs off up to 5 s
    // between tries, so the last try may come that long after the restart: wait that long.
    for (const deadline = restartedAt + 8000; Date.now() < deadline && !apis.every((a) => /LISTEN connection restored/.test(a.output())); ) await sleep(100);
    for (const a of apis) {
      expect(a.output().match(/LISTEN connection lost/g)?.length).toBe(1);
      expect(a.output().match(/LISTEN connection restored/g)?.length).toBe(1);
    }
    // For the record: the numbers a reader of the test log wants.
    console.log(JSON.stringify({ outcomes: Object.fromEntries(kinds), recoveredInMs: recoveredIn, outageMs: restartedAt - killedAt }));
  });
});
