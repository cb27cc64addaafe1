/**
 * Worker-level measurement of issue 13's `WEBHOOK_MAX_BATCH=1` burst, without Kafka or the API:
 * a "notifier" child process (the outbox intake in slices, as the batch transport hands them
 * over, plus one DeliveryWorker with the notifier's settings) and the bench's https receiver in
 * this process. Prints the burst's Pix/s, the raw POST ceiling measured just before, the child's
 * CPU per Pix and PostgreSQL's transactions and statements per Pix (scratch database).
 *
 *   node -r ./libs/webhook-delivery/src/testing/swc-register.js test/bench/cash-in-worker-load.ts
 *   env: BURST (3000), KEYS (16), SLICE (500: rows per intake call), MAX_BATCH (1), PROFILE=dir (child --cpu-prof),
 *   SQL_TIMES=1 (client-side statement latencies), LIB=<another copy's src/index.ts> (e.g. `git archive` of
 *   an earlier commit, with NODE_PATH=node_modules) for back-to-back before/after runs
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, Pool } from 'pg';
import { rawPostCeiling } from './kafka-load';
import { selfSignedCertificate, WebhookReceiver, epochMs } from './webhook-receiver';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BURST = Number(process.env.BURST ?? 3000);
const KEYS = Number(process.env.KEYS ?? 16);
const SLICE = Number(process.env.SLICE ?? 500);
const MAX_BATCH = Number(process.env.MAX_BATCH ?? 1);

/** CPU ticks of the server processes serving the scratch database (its backends, by pid). */
const backendTicks = async (admin: Pool, db: string) => {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [db]);
  let total = 0;
  for (const { pid } of rows) {
    try {
      total += ticks(pid);
    } catch {
      /* gone */
    }
  }
  return total;
};

const ticks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]); // utime + stime, in clock ticks (100/s)
};

async function parent(): Promise<void> {
  const admin = new Pool({ connectionString: ADMIN_URL, max: 2 });
  const db = `pix_wload_${Date.now().toString(36)}`;
  await admin.query(`CREATE DATABASE ${db}`);
  const url = ADMIN_URL.replace(/\/[^/]*$/, `/${db}`);
  const tls = selfSignedCertificate();
  const receiver = await WebhookReceiver.start(tls);
  try {
    const raw = await rawPostCeiling(`${receiver.url}/raw/pix`, tls.caPath, JSON.stringify({ pix: [{ endToEndId: 'R1', valor: '1.00' }] }), 16, { warmupMs: 1000, measureMs: 3000 });
    const keys = Array.from({ length: KEYS }, (_, i) => `chave-${i}-${db}`);
    const e2e = Array.from({ length: BURST }, (_, i) => `E${db}${String(i).padStart(8, '0')}`.slice(0, 32));
    const args = [...(process.env.PROFILE ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.PROFILE}`] : []), ...process.execArgv, __filename, 'child', url, receiver.url, tls.caPath, JSON.stringify(keys)];
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    let lines = 0;
    const ready = new Promise<void>((resolve) =>
      child.stdout!.on('data', (c: Buffer) => {
        if (c.toString().includes('ready')) resolve();
        lines += c.toString().split('\n').length - 1;
      }),
    );
    await ready;
    const arrivals = e2e.map((id) => receiver.expect(id, 120_000));
    const stats = async () => {
      const { rows } = await admin.query(`SELECT xact_commit::bigint AS x, tup_inserted::bigint + tup_updated::bigint AS w FROM pg_stat_database WHERE datname = $1`, [db]);
      return { x: Number(rows[0].x), w: Number(rows[0].w) };
    };
    await new Promise((r) => setTimeout(r, 1500)); // pg stats are flushed at most once a second
    const s0 = await stats();
    const cpu0 = ticks(child.pid!);
    const pg0 = await backendTicks(admin, db);
    const self0 = ticks(process.pid);
    const started = epochMs();
    child.stdin!.write(`${JSON.stringify(e2e)}\n`);
    const last = Math.max(...(await Promise.all(arrivals)));
    const cpu1 = ticks(child.pid!);
    const pg1 = await backendTicks(admin, db);
    const self1 = ticks(process.pid);
    const ms = last - started;
    await new Promise((r) => setTimeout(r, 1500));
    const s1 = await stats();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    const rate = BURST / (ms / 1000);
    console.log(
      `burst ${BURST} over ${KEYS} keys (batch ${MAX_BATCH}, slices of ${SLICE}): ${ms.toFixed(0)} ms, ${rate.toFixed(0)} Pix/s; raw POSTs ${raw.rate.toFixed(0)}/s; ratio ${(rate / raw.rate).toFixed(3)}; ` +
        `child CPU ${(((cpu1 - cpu0) * 10) / BURST).toFixed(3)} ms/Pix (${(((cpu1 - cpu0) * 10) / ms * 100).toFixed(0)}% of a core); ` +
        `postgres CPU ${(((pg1 - pg0) * 10) / BURST).toFixed(3)} ms/Pix, receiver (this process) ${(((self1 - self0) * 10) / BURST).toFixed(3)} ms/Pix; ` +
        `pg commits ${((s1.x - s0.x) / BURST).toFixed(2)}/Pix; POSTs ${receiver.webhookPosts}, duplicates ${receiver.duplicates}; log lines ${lines}`,
    );
  } finally {
    await receiver.stop();
    tls.remove();
    await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.end();
  }
}

async function child(url: string, receiverUrl: string, caPath: string, keysJson: string): Promise<void> {
  // Loaded here, so the parent does not load the library it measures (LIB: another copy of it).
  const { DeliveryWorker } = (await import(process.env.LIB ?? path.resolve(__dirname, '../../libs/webhook-delivery/src/index.ts'))) as typeof import('@pix/webhook-delivery');
  const keys = JSON.parse(keysJson) as string[];
  const pool = new Pool({ connectionString: url, max: 20 });
  if (process.env.SQL_TIMES) timeStatements(pool);
  const urls = new Map(keys.map((k, i) => [k, `${receiverUrl}/k${i}`]));
  // One JSON line per message on stdout, as the notifier's logger writes them.
  const line = (level: string) => (msg: string) => void process.stdout.write(`${JSON.stringify({ level, time: Date.now(), service: 'pix-notifier', msg })}\n`);
  // POST latency as the worker saw it, and how many POSTs it had in flight (sampled): where a slot's time goes.
  const seen = { posts: 0, postMs: 0, samples: 0, inFlight: 0 };
  const onAttempt = (a: { latencyMs: number }) => void ((seen.posts += 1), (seen.postMs += a.latencyMs));
  process.on('exit', () => process.stderr.write(`worker: POST ${(seen.postMs / seen.posts).toFixed(1)} ms mean; ${(seen.inFlight / Math.max(1, seen.samples)).toFixed(1)} in flight on average while busy\n`));
  const config = { maxBatch: MAX_BATCH, allowPrivateTargets: true, tls: { ca: readFileSync(caPath) }, onAttempt };
  // LOOKUP=db: each webhook lookup costs a round trip, as the notifier's read of the key's stream does.
  let lookups = 0;
  const urlFor = async (chave: string) => {
    lookups += 1;
    if (process.env.LOOKUP === 'db') await pool.query('SELECT $1::text AS chave', [chave]);
    return urls.get(chave);
  };
  process.on('exit', () => process.stderr.write(`webhook lookups: ${lookups}\n`));
  const worker = new DeliveryWorker(pool, { urlFor }, config, { now: () => new Date() }, { log: line('info'), error: line('error') });
  await worker.start();
  const lanes = () => JSON.stringify((worker as unknown as { lanes: { limits(): { inFlight: number[] } } }).lanes.limits().inFlight);
  process.on('exit', () => process.stderr.write(`lanes at exit: ${lanes()}\n`));
  setInterval(() => {
    const w = worker as unknown as { posting?: number; inFlight: Set<unknown> };
    const n = w.posting ?? w.inFlight.size;
    if (n > 0) void ((seen.samples += 1), (seen.inFlight += n));
  }, 5).unref();
  process.once('SIGTERM', () => void worker.stop().then(() => pool.end()).then(() => process.exit(0)));
  let input = '';
  process.stdin.on('data', async (c: Buffer) => {
    input += c.toString();
    if (!input.endsWith('\n')) return;
    const e2e = JSON.parse(input) as string[];
    for (let i = 0; i < e2e.length; i += SLICE) {
      const slice = e2e.slice(i, i + SLICE).map((id, j) => {
        const chave = keys[(i + j) % keys.length];
        const txid = `tx${id}`.slice(0, 30);
        return { endToEndId: id, chave, txid, pix: { endToEndId: id, txid, valor: '12.34', chave, horario: new Date().toISOString(), infoPagador: 'pagamento de teste' } };
      });
      await worker.enqueueMany(slice); // as the notifier's intake: stored and claimed in one round trip
    }
  });
  process.stdout.write('ready\n');
}

/** Per statement (first words): count and mean latency as the client sees it, printed at exit. */
function timeStatements(_pool: Pool): void {
  const seen = new Map<string, { n: number; ms: number }>();
  const proto = Client.prototype as unknown as { query: (...a: unknown[]) => Promise<unknown> };
  const query = proto.query;
  proto.query = function (this: unknown, ...a: unknown[]) {
    const original = (...b: unknown[]) => query.apply(this, b);
    const sql = typeof a[0] === 'string' ? a[0] : '?';
    const name = sql.replace(/\s+/g, ' ').trim().slice(0, 60);
    const t = performance.now();
    const callback = a[a.length - 1];
    if (typeof callback === 'function') {
      a[a.length - 1] = (...r: unknown[]) => {
        const s = seen.get(name) ?? { n: 0, ms: 0 };
        s.n += 1;
        s.ms += performance.now() - t;
        seen.set(name, s);
        return (callback as (...r: unknown[]) => unknown)(...r);
      };
      return original(...a);
    }
    const done = () => {
      const s = seen.get(name) ?? { n: 0, ms: 0 };
      s.n += 1;
      s.ms += performance.now() - t;
      seen.set(name, s);
    };
    const p = original(...a);
    p.then(done, done);
    return p;
  };
  process.on('exit', () => {
    for (const [name, s] of seen) if (s.n > 1) process.stderr.write(`${String(s.n).padStart(6)} × ${(s.ms / s.n).toFixed(2).padStart(7)} ms  ${name}\n`);
  });
}

if (process.argv[2] === 'child') void child(process.argv[3], process.argv[4], process.argv[5], process.argv[6]);
else
  parent().catch((error) => {
    console.error(error);
    process.exit(1);
  });
