import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import type { PixRecebidoMessage } from '@pix/contracts';
import { createKafka, KAFKA_PUBLISH_RETRY, KafkaCashInPublisher } from '@pix/messaging-kafka';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { newTxid, validCobV } from '../support/api-harness';
import { freePort, startApiProcess, type ApiProcess } from '../support/api-process';
import { cashIn, contractClient, inPool, PRODUCTION_KEY } from '../support/cash-in-fixtures';
import { PspCore } from '../support/kafka-client';
import { startNotifierProcess, type NotifierProcess } from '../support/notifier-process';
import { Receiver, selfSignedCertificate } from '../support/receiver';
import { toProblem } from '../../apps/api/src/http/problem-mapping';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startKafka } = require('../../tools/kafka/kafka.js') as { startKafka(o: { port: number }): Promise<OwnKafka> };

interface OwnKafka {
  brokers: string;
  kill(signal?: NodeJS.Signals): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

jest.setTimeout(150_000);

/**
 * Once the restarted broker accepts requests, every cash-in is settled and notified within this
 * bound: 2-4.5 s measured when the consumers rode the outage out; a consumer that crashed during it
 * rejoins as a new member, and its group waits for the old member's session (15 s) to expire.
 */
const RECOVERY_BOUND_MS = 20_000;
/** How long the broker stays dead before its restart begins (the JVM then takes ~5-12 s more). */
const DEAD_MS = 3000;
const METRICS_TOKEN = 'metrics-token-for-the-faults-e2e-0123456789';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (p: { child: { exitCode: number | null; signalCode: string | null } }) => p.child.exitCode === null && p.child.signalCode === null;

/**
 * Our own single-node broker (never the shared one) is SIGKILLed while a PSP core publishes
 * cash-ins and clients write charges, then restarted on the same port and data. Two APIs settle
 * and two notifiers deliver throughout (production mode, one consumer group each).
 */
describe('faults: Kafka broker killed with SIGKILL under load and restarted', () => {
  let kafka: OwnKafka;
  let db: TestDatabase;
  let tls: ReturnType<typeof selfSignedCertificate>;
  let receiver: Receiver;
  let psp: PspCore;
  let ours: KafkaCashInPublisher; // the API's own publisher (the sandbox payer's)
  const apis: ApiProcess[] = [];
  const notifiers: NotifierProcess[] = [];

  beforeAll(async () => {
    kafka = await startKafka({ port: 0 });
    db = await createTestDatabase('faults_kafka');
    tls = selfSignedCertificate();
    receiver = await Receiver.start({ tls });
    const env = { KAFKA_BROKERS: kafka.brokers, METRICS_TOKEN };
    for (let i = 0; i < 2; i++) apis.push(await startApiProcess(db.url, await freePort(), env));
    for (let i = 0; i < 2; i++)
      notifiers.push(
        await startNotifierProcess({ DATABASE_URL: db.url, ...env, NOTIFIER_PORT: String(await freePort()), WEBHOOK_CA: tls.caPath, WEBHOOK_POLL: '50ms', WEBHOOK_RETRY_SCHEDULE: '200ms,500ms,1s' }),
      );
    psp = await PspCore.connect([kafka.brokers]);
    ours = new KafkaCashInPublisher(createKafka([kafka.brokers], 'test-api-publisher', KAFKA_PUBLISH_RETRY)); // as the API makes it
    await ours.connect();
  }, 120_000);
  afterAll(async () => {
    await psp?.disconnect().catch(() => undefined);
    await ours?.disconnect().catch(() => undefined);
    for (const p of [...apis, ...notifiers]) await p.kill();
    await receiver?.close();
    await kafka?.stop();
    await db?.drop();
    tls?.remove();
  }, 60_000);

  it('no process exits, charges are written throughout, every cash-in published before or during the outage is settled exactly once and notified', async () => {
    const client = contractClient(apis[0].base, apis[0].headers());
    expect((await client.request('PUT', `/webhook/${PRODUCTION_KEY}`, { webhookUrl: `${receiver.url}/hook` })).status).toBe(200);
    // Charges for the cash-ins, spread over both instances.
    const txids = await inPool(Array.from({ length: 61 }), 6, (_, i) => contractClient(apis[i % 2].base, apis[i % 2].headers()).charge());

    // Writes that do not need Kafka, all along.
    const writes: { at: number; status: number | 'no answer' }[] = [];
    let loading = true;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      while (loading) {
        const at = Date.now();
        try {
          const r = await fetch(`${apis[w % 2].base}/cobv/${newTxid('k')}`, { method: 'PUT', headers: apis[w % 2].headers({ 'content-type': 'application/json' }), body: JSON.stringify(validCobV()), signal: AbortSignal.timeout(10_000) });
          writes.push({ at, status: r.status });
        } catch {
          writes.push({ at, status: 'no answer' });
        }
        await sleep(20);
      }
    });

    // The PSP core publishes one cash-in every 100 ms before, during and after the outage.
    const published: PixRecebidoMessage[] = [];
    const failed: string[] = [];
    const sends: Promise<void>[] = [];
    let next = 0;
    // As a PSP core does, a send that failed (broker down) is sent again until acknowledged.
    const publishOne = () => {
      const message = cashIn(txids[next++]);
      sends.push(psp.publishUntilAcknowledged(message, 60_000).then(() => void published.push(message), (e: Error) => void failed.push(`${message.endToEndId}: ${e.message}`)));
    };
    for (let i = 0; i < 20; i++, await sleep(100)) publishOne();

    const killedAt = Date.now();
    await kafka.kill('SIGKILL');
    // Our own publisher with the broker down fails fast with a kafkajs error, which a request answers
    // 503 ServicoIndisponivel with Retry-After (never a 2xx for a cash-in that was not published).
    const ourMessage = cashIn(txids[60]);
    const ourStarted = Date.now();
    const ourAttempt = ours.publish(ourMessage).then(
      () => ({ failure: undefined as unknown, ms: Date.now() - ourStarted }),
      (failure: unknown) => ({ failure, ms: Date.now() - ourStarted }),
    );
    for (let i = 0; i < 20; i++, await sleep(DEAD_MS / 20)) publishOne();
    const { failure: ourFailure, ms: ourFailedInMs } = await ourAttempt;
    // Readiness says the cluster is gone (a connected consumer alone would not notice): the
    // notifiers (consuming is their job) answer 503; the APIs stay in the load balancer, degraded,
    // since only settlement waits for Kafka.
    const origins = [...apis.map((a) => a.base.replace(/\/v2$/, '')), ...notifiers.map((n) => n.base)];
    const readyUrls = origins.map((o) => `${o}/health/ready`);
    const readiness = () => Promise.all(readyUrls.map((u) => fetch(u).then(async (r) => `${r.status} ${((await r.json()) as { status: string }).status}`)));
    const readyDuring = await readiness();
    // And the metrics say it too (they showed nothing but zeros).
    const dependencies = async () =>
      Promise.all(
        origins.map(async (o) => {
          const text = await (await fetch(`${o}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
          return [...text.matchAll(/^pix_dependency_up\{dependency="(\w+)"[^}]*\} (\d)$/gm)].map((m) => `${m[1]} ${m[2]}`).join(', ');
        }),
      );
    const dependenciesDuring = await dependencies();
    await kafka.restart();
    const backAt = Date.now();
    let readyAfter = await readiness();
    for (const deadline = Date.now() + 15_000; readyAfter.some((s) => s !== '200 ok') && Date.now() < deadline; await sleep(250)) readyAfter = await readiness();
    const dependenciesAfter = await dependencies();
    for (let i = 0; i < 20; i++, await sleep(100)) publishOne();
    // The client retries after the 503: the same publisher, broker back, publishes it.
    await ours.publish(ourMessage);
    published.push(ourMessage);
    await Promise.all(sends);
    const outageWrites = writes.filter((w) => w.at >= killedAt && w.at < backAt);

    // Everything acknowledged is settled and notified within the bound.
    const e2es = published.map((m) => m.endToEndId);
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    const settledOf = async () =>
      (
        await pg.query<{ e2e: string; n: number; last: Date }>(
          `SELECT data->'pix'->>'endToEndId' AS e2e, count(*)::int AS n, max(recorded_at) AS last FROM es_events WHERE event_type = 'CobVConcluida' AND data->'pix'->>'endToEndId' = ANY($1) GROUP BY 1`,
          [e2es],
        )
      ).rows;
    let settled = await settledOf();
    for (const deadline = backAt + RECOVERY_BOUND_MS + 10_000; settled.length < e2es.length && Date.now() < deadline; await sleep(250)) settled = await settledOf();
    await receiver.waitUntil(() => e2es.every((e) => receiver.forEndToEndId(e).length > 0), Math.max(1000, backAt + RECOVERY_BOUND_MS + 10_000 - Date.now()), 'every published cash-in notified').catch(() => undefined);
    await sleep(1500); // a duplicate delivery would arrive now
    loading = false;
    await Promise.all(writers);
    await pg.end();

    const settledAll = Math.max(...settled.map((r) => r.last.getTime())) - backAt;
    const notifiedAll = Math.max(...e2es.map((e) => receiver.forEndToEndId(e)[0]?.receivedAt ?? Infinity)) - backAt;
    const report = { ourPublishFailedInMs: ourFailedInMs, published: published.length, failedSends: failed.length, outageMs: backAt - killedAt, writesDuringOutage: outageWrites.length, settledAllInMs: settledAll, notifiedAllInMs: notifiedAll };
    console.log(JSON.stringify(report));
    // FAULTS_KAFKA_LOGS=<folder>: the processes' logs, to see how each consumer rode the outage out.
    const logs = process.env.FAULTS_KAFKA_LOGS;
    if (logs) [...apis, ...notifiers].forEach((p, i) => writeFileSync(path.join(logs, `process-${i}.log`), `killed ${new Date(killedAt).toISOString()} back ${new Date(backAt).toISOString()}\n${p.output()}`));

    expect({ readyDuring, readyAfter }).toEqual({ readyDuring: ['200 degraded', '200 degraded', '503 unavailable', '503 unavailable'], readyAfter: readyUrls.map(() => '200 ok') });
    expect({ dependenciesDuring, dependenciesAfter }).toEqual({ dependenciesDuring: origins.map(() => 'database 1, kafka 0'), dependenciesAfter: origins.map(() => 'database 1, kafka 1') });
    // No process exited.
    expect([...apis, ...notifiers].filter((p) => !alive(p)).map((p) => p.output().slice(-3000))).toEqual([]);
    // Charges were written all through the outage: 201 only.
    expect(outageWrites.length).toBeGreaterThan(10);
    expect([...new Set(writes.map((w) => w.status))]).toEqual([201]);
    // The PSP's sends all went through once the broker was back.
    expect(failed).toEqual([]);
    expect(published).toHaveLength(61);
    const problem = toProblem(ourFailure, 'c');
    expect({ failedFast: ourFailedInMs < 15_000, status: problem.status, type: problem.body.type, retryAfter: problem.headers?.['retry-after'] }).toEqual({
      failedFast: true,
      status: 503,
      type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel',
      retryAfter: '2',
    });
    // Every cash-in settled exactly once, and notified once (one notification id, one delivery).
    expect(settled.filter((r) => r.n !== 1)).toEqual([]);
    expect(settled.map((r) => r.e2e).sort()).toEqual([...e2es].sort());
    expect(e2es.filter((e) => receiver.forEndToEndId(e).length !== 1)).toEqual([]);
    expect({ settledAll: settledAll < RECOVERY_BOUND_MS, notifiedAll: notifiedAll < RECOVERY_BOUND_MS }).toEqual({ settledAll: true, notifiedAll: true });
  });
});
