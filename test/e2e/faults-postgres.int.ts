import { Client } from 'pg';
import { newTxid, validCobV } from '../support/api-harness';
import { freePort, startApiProcess, type ApiProcess } from '../support/api-process';
import { lockKafka } from '../support/kafka-client';
import { startNotifierProcess, type NotifierProcess } from '../support/notifier-process';
import { startOwnPostgres, type OwnPostgres } from '../support/own-postgres';

jest.setTimeout(120_000);

/** After PostgreSQL accepts connections again, every API serves writes within this bound. */
const RECOVERY_BOUND_MS = 10_000;
const OUTAGE_MS = 4000;

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
  const apis: ApiProcess[] = [];
  const notifiers: NotifierProcess[] = [];

  let unlock: (() => void) | undefined;
  beforeAll(async () => {
    pg = await startOwnPostgres();
    const kafka = process.env.KAFKA_BROKERS;
    if (kafka) unlock = await lockKafka(kafka.split(','), 600_000);
    for (let i = 0; i < 2; i++) apis.push(await startApiProcess(pg.url, await freePort()));
    // The notifiers' claim loops and stores hold pooled clients when the server dies (they used to exit).
    const group = `faults-pg-${Date.now()}`; // both notifiers share one group, as in production
    if (kafka)
      for (let i = 0; i < 2; i++)
        notifiers.push(await startNotifierProcess({ DATABASE_URL: pg.url, KAFKA_BROKERS: kafka, NOTIFIER_PORT: String(await freePort()), NOTIFIER_GROUP_ID: group, WEBHOOK_POLL_MS: '50' }));
  }, 720_000);
  afterAll(async () => {
    for (const p of [...apis, ...notifiers]) await p.kill();
    await pg?.stop();
    unlock?.();
  });

  it('no process exits, the outage answers 503 ServicoIndisponivel (never 500), writes resume within the bound, every 2xx write is stored exactly once', async () => {
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
    await sleep(OUTAGE_MS / 2);
    const readyDuring = await Promise.all(apis.map((a) => fetch(`${a.base.replace(/\/v2$/, '')}/health/ready`).then((r) => r.status)));
    await sleep(OUTAGE_MS / 2);
    await pg.restart();
    const restartedAt = Date.now();
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
    // The LISTEN connections came back, said once each way.
    for (const a of apis) {
      expect(a.output().match(/LISTEN connection lost/g)?.length).toBe(1);
      expect(a.output().match(/LISTEN connection restored/g)?.length).toBe(1);
    }
    // For the record: the numbers a reader of the test log wants.
    console.log(JSON.stringify({ outcomes: Object.fromEntries(kinds), recoveredInMs: recoveredIn, outageMs: restartedAt - killedAt }));
  });
});
