/**
 * Notifier-level measurement of issue 13's `WEBHOOK_MAX_BATCH=1` burst: the compiled notifier
 * (dist/, `npm run build`) on a scratch database with 16 keys' webhooks in its event store, fed
 * through Kafka (KAFKA_BROKERS, e.g. the test broker on 19092), delivering to the bench's https
 * receiver in this process. No API: nothing settles. Prints the burst's Pix/s and when the last
 * notification was stored (the intake) against when the last POST arrived, with the notifier's CPU.
 *
 *   npm run build && KAFKA_BROKERS=127.0.0.1:19092 node tools/launch.js test/bench/cash-in-intake-load.js
 *   env: BURST (3000), KEYS (16), MAX_BATCH (1)
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Pool } from 'pg';
import { EVENT_STORE_MIGRATIONS, migrate, PostgresEventStore } from '@pix/event-store';
import { webhookStreamId } from '@pix/domain';
import { cashIn, connectPsp, skipOldCashIns } from './kafka-load';
import { startNotifier } from './processes';
import { epochMs, selfSignedCertificate, WebhookReceiver } from './webhook-receiver';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BROKERS = process.env.KAFKA_BROKERS ?? '127.0.0.1:19092';
const BURST = Number(process.env.BURST ?? 3000);
const KEYS = Number(process.env.KEYS ?? 16);
/** WEBHOOK_MAX_BATCH for the notifier (1: issue 13's single-Pix case; 50 is the default). */
const MAX_BATCH = process.env.MAX_BATCH ?? '1';
/** PROFILER=preload.js: a preload given to the notifier (NODE_OPTIONS), signalled SIGUSR2 just before the burst and again after it (e.g. to start and then write a CPU profile of the burst alone). */
const profile: Record<string, string> = process.env.PROFILER ? { NODE_OPTIONS: `--require ${process.env.PROFILER}` } : {};

/** Busy CPU ticks of the whole machine (all processes, everyone's), from /proc/stat. */
const machineTicks = () => {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).map(Number);
  return user + nice + system + irq + softirq + steal;
};

const ticks = (pid: number | undefined) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]);
};

async function main(): Promise<void> {
  const admin = new Pool({ connectionString: ADMIN_URL, max: 2 });
  const db = `pix_iload_${Date.now().toString(36)}`;
  await admin.query(`CREATE DATABASE ${db}`);
  const url = ADMIN_URL.replace(/\/[^/]*$/, `/${db}`);
  const pool = new Pool({ connectionString: url, max: 4 });
  const tls = selfSignedCertificate();
  const receiver = await WebhookReceiver.start(tls);
  const keys = Array.from({ length: KEYS }, (_, i) => `${db}-k${i}@example.com`);
  const group = `iload-${db}`;
  const psp = await connectPsp(BROKERS);
  try {
    await migrate(pool, EVENT_STORE_MIGRATIONS);
    const store = await PostgresEventStore.create({ pool, listen: false });
    for (const [i, chave] of keys.entries()) {
      const data = { chave, webhookUrl: `${receiver.url}/k${i}`, criacao: new Date().toISOString(), recebedorId: 'bench' };
      await store.appendToStream(webhookStreamId(chave), [{ id: randomUUID(), type: 'WebhookConfigurado', data }], 'no_stream');
    }
    await store.close();
    await skipOldCashIns(psp.kafka, [group]);
    const notifier = await startNotifier(url, BROKERS, { WEBHOOK_CA: tls.caPath, NOTIFIER_GROUP_ID: group, WEBHOOK_MAX_BATCH: MAX_BATCH, ...profile });
    try {
      // One per key first: the consumer group joined, connections open.
      const warm = keys.map((k, i) => cashIn(`warm${i}`.padEnd(26, '0'), 'W', k));
      const warmed = warm.map((m) => receiver.expect(m.endToEndId, 60_000));
      await psp.publishMany(warm);
      await Promise.all(warmed);
      const posts = receiver.webhookPosts;
      const burst = Array.from({ length: BURST }, (_, i) => cashIn(`tx${i}`.padEnd(26, '0'), 'E', keys[i % KEYS]));
      const arrivals = burst.map((m) => receiver.expect(m.endToEndId, 120_000));
      const cpu0 = ticks(notifier.proc.pid);
      const self0 = ticks(process.pid);
      const machine0 = machineTicks();
      if (process.env.PROFILER) notifier.proc.kill('SIGUSR2');
      const started = epochMs();
      await psp.publishMany(burst);
      const published = epochMs() - started;
      const last = Math.max(...(await Promise.all(arrivals))) - started;
      const cpu = ((ticks(notifier.proc.pid) - cpu0) * 10) / BURST;
      const self = ((ticks(process.pid) - self0) * 10) / BURST;
      const machine = ((machineTicks() - machine0) * 10) / BURST;
      if (process.env.PROFILER) notifier.proc.kill('SIGUSR2');
      const { rows } = await pool.query<{ stored: number; first: number }>(
        `SELECT extract(epoch FROM max(created_at)) * 1000 AS stored, extract(epoch FROM min(created_at)) * 1000 AS first FROM webhook_outbox WHERE end_to_end_id = ANY($1::text[])`,
        [burst.map((m) => m.endToEndId)],
      );
      console.log(
        `burst ${BURST} over ${KEYS} keys, WEBHOOK_MAX_BATCH=${MAX_BATCH}: ${(BURST / (last / 1000)).toFixed(0)} Pix/s (last POST at ${last.toFixed(0)} ms; published by ${published.toFixed(0)} ms; ` +
          `first stored at ${(Number(rows[0].first) - started).toFixed(0)} ms, last stored at ${(Number(rows[0].stored) - started).toFixed(0)} ms); CPU per Pix: notifier ${cpu.toFixed(2)} ms, this process (producer, receiver) ${self.toFixed(2)} ms, whole machine ${machine.toFixed(2)} ms (${((machine * BURST * 100) / last).toFixed(0)}% of one core: everyone's work); ${receiver.webhookPosts - posts} POSTs; duplicates ${receiver.duplicates}`,
      );
    } finally {
      await notifier.stop();
    }
  } finally {
    await psp.stop();
    await receiver.stop();
    tls.remove();
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
