import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { notificationIdFor } from './notification-id';
import { cashIn, FAST, Harness, waitFor } from './testing/harness';
import { TestReceiver } from './testing/test-receiver';

const KEYS = Array.from({ length: 10 }, (_, i) => `key-${i}`);

/** Starts testing/worker-process.ts in a second OS process; resolves once it is connected. */
async function startChildWorker(databaseUrl: string, urls: Record<string, string>, config: object) {
  const dir = path.join(__dirname, 'testing');
  const child = spawn(process.execPath, ['-r', path.join(dir, 'swc-register.js'), path.join(dir, 'worker-process.ts'), databaseUrl, JSON.stringify(urls), JSON.stringify(config)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await waitFor('the child worker to be ready', () => {
    if (child.exitCode !== null) throw new Error(`child worker exited:\n${out}`);
    return out.includes('ready');
  }, 20_000);
  return { child, output: () => out };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('webhook delivery: two workers in two processes on one database', () => {
  let db: TestDatabase;
  let h: Harness;
  let child: ChildProcess | undefined;
  const receivers = new Map<string, TestReceiver>();

  beforeAll(async () => {
    db = await createTestDatabase('whd_workers');
    h = await Harness.open(db.url);
    for (const key of KEYS) {
      // Answers take 5-25 ms so the two workers genuinely race for the queue.
      const r = await TestReceiver.start({ responder: () => ({ status: 200, delayMs: 5 + Math.floor(Math.random() * 20) }) });
      receivers.set(key, r);
      h.registrations.urls.set(key, r.baseUrl);
    }
  });
  afterAll(async () => {
    if (child) await stopChild(child);
    await h?.close();
    await Promise.all([...receivers.values()].map((r) => r.close()));
    await db?.drop();
  });

  it('200 notifications, batched: each endToEndId is received exactly once, each POST has its own webhook-id, and no key ever has more than 2 requests in flight', async () => {
    const config = { ...FAST, concurrency: 8, maxInFlightPerKey: 2, maxBatch: 5, pollMs: 10 };
    const started = await startChildWorker(db.url, Object.fromEntries(h.registrations.urls), config);
    child = started.child;
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) ids.push((await h.outbox.enqueue(cashIn(KEYS[i % KEYS.length]))).id);

    const t0 = Date.now();
    child.stdin!.write('go\n');
    await h.startWorker(config, true);
    await waitFor('all 200 delivered', async () => (await h.outbox.stats()).pending === 0, 30_000, 50);
    const elapsed = Date.now() - t0;

    // Batching changes what a request is (up to 5 Pix each), not what reaches the receivers.
    const all = [...receivers.values()].flatMap((r) => r.requests);
    const items = all.flatMap((r) => (JSON.parse(r.body) as { pix: { endToEndId: string }[] }).pix.map((p) => p.endToEndId));
    expect(items).toHaveLength(200);
    expect(new Set(items.map(notificationIdFor))).toEqual(new Set(ids));
    expect(new Set(all.map((r) => r.headers['webhook-id'])).size).toBe(all.length);
    expect(all.every((r) => (JSON.parse(r.body) as { pix: unknown[] }).pix.length <= 5)).toBe(true);
    for (const r of receivers.values()) expect(r.maxInFlight).toBeLessThanOrEqual(2);

    const { rows } = await h.pool.query(`SELECT count(*)::int AS n, count(DISTINCT notification_id)::int AS d, count(DISTINCT delivery_id)::int AS p FROM webhook_outbox_attempts`);
    expect(rows[0]).toEqual({ n: 200, d: 200, p: all.length });

    await stopChild(child);
    const childDelivered = Number(/delivered (\d+)/.exec(started.output())?.[1]);
    const parentDelivered = h.logger.lines.filter((l) => l.endsWith('; delivered')).length;
    expect(childDelivered + parentDelivered).toBe(all.length);
    expect(childDelivered).toBeGreaterThan(0);
    expect(parentDelivered).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(30_000);
    console.log(`two workers: 200 delivered in ${all.length} POSTs in ${elapsed} ms (child ${childDelivered}, parent ${parentDelivered})`);
  }, 60_000);
});
