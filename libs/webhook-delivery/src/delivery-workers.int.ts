import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import type { DeliveryConfig } from './config';
import { notificationIdFor } from './notification-id';
import { cashIn, FAST, Harness, waitFor } from './testing/harness';
import { TestReceiver } from './testing/test-receiver';

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

/** Held answers neither time out nor free their slots as slow while the other worker starts. */
const GATED = { ...FAST, timeoutMs: 30_000, slowResponseMs: 60_000 };

describe('webhook delivery: two workers in two processes on one database', () => {
  let db: TestDatabase;
  let h: Harness;
  let child: ChildProcess | undefined;
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('whd_workers');
    h = await Harness.open(db.url);
  });
  afterAll(async () => {
    if (child) await stopChild(child);
    await h?.close();
    await Promise.all(receivers.map((r) => r.close()));
    await db?.drop();
  });

  /**
   * 200 notifications over 10 keys (named with `prefix`), delivered by a worker in a child process
   * and one here racing for the same outbox; returns the POSTs the receivers read.
   */
  async function race(prefix: string, config: Partial<DeliveryConfig> & { concurrency: number }) {
    const keys = Array.from({ length: 10 }, (_, i) => `${prefix}-${i}`);
    const byKey = new Map<string, TestReceiver>();
    // One worker alone has at most `concurrency` POSTs open (no slot is freed as slow here): no
    // answer goes until more are open at once, so both workers are surely sending. Without the
    // gate, a worker that started late on a loaded machine found the other had sent everything.
    let open!: () => void;
    const bothSending = new Promise<void>((resolve) => (open = resolve));
    const openPosts = () => [...byKey.values()].reduce((n, r) => n + r.inFlight, 0);
    for (const key of keys) {
      // Answers take 5-25 ms so the two workers genuinely race for the queue.
      const r = await TestReceiver.start({
        responder: () => {
          if (openPosts() > config.concurrency) open();
          return { status: 200, delayMs: 5 + Math.floor(Math.random() * 20), after: bothSending };
        },
      });
      receivers.push(r);
      byKey.set(key, r);
      h.registrations.urls.set(key, r.baseUrl);
    }
    const started = await startChildWorker(db.url, Object.fromEntries(keys.map((k) => [k, byKey.get(k)!.baseUrl])), config);
    child = started.child;
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) ids.push((await h.outbox.enqueue(cashIn(keys[i % keys.length]))).id);

    const t0 = Date.now();
    const linesBefore = h.logger.lines.length;
    child.stdin!.write('go\n');
    await h.startWorker(config, true);
    await waitFor('all 200 delivered', async () => (await h.outbox.stats()).pending === 0, 30_000, 50);
    const elapsed = Date.now() - t0;
    await h.stopWorkers();
    await stopChild(child);

    const all = [...byKey.values()].flatMap((r) => r.requests);
    const items = all.flatMap((r) => (JSON.parse(r.body) as { pix: { endToEndId: string }[] }).pix.map((p) => p.endToEndId));
    expect(items).toHaveLength(200);
    expect(new Set(items.map(notificationIdFor))).toEqual(new Set(ids));
    expect(new Set(all.map((r) => r.headers['webhook-id'])).size).toBe(all.length);
    for (const r of byKey.values()) expect(r.maxInFlight).toBeLessThanOrEqual(2);

    const { rows } = await h.pool.query(
      `SELECT count(*)::int AS n, count(DISTINCT notification_id)::int AS d, count(DISTINCT delivery_id)::int AS p FROM webhook_outbox_attempts WHERE notification_id = ANY($1::uuid[])`,
      [ids],
    );
    expect(rows[0]).toEqual({ n: 200, d: 200, p: all.length });

    const childDelivered = Number(/delivered (\d+)/.exec(started.output())?.[1]);
    const parentDelivered = h.logger.lines.slice(linesBefore).filter((l) => l.endsWith('; delivered')).length;
    expect(childDelivered + parentDelivered).toBe(all.length);
    expect(childDelivered).toBeGreaterThan(0);
    expect(parentDelivered).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(30_000);
    console.log(`two workers (${prefix}): 200 delivered in ${all.length} POSTs in ${elapsed} ms (child ${childDelivered}, parent ${parentDelivered})`);
    return all;
  }

  it('200 notifications, batched: each endToEndId is received exactly once, each POST has its own webhook-id, and no key ever has more than 2 requests in flight', async () => {
    const all = await race('batched', { ...GATED, concurrency: 8, maxInFlightPerKey: 2, maxBatch: 5, pollMs: 10 });
    expect(all.every((r) => (JSON.parse(r.body) as { pix: unknown[] }).pix.length <= 5)).toBe(true);
  }, 60_000);

  it('200 notifications, one per POST (slots handed over from result to next due in one statement): each once, no key ever more than 2 in flight', async () => {
    const all = await race('single', { ...GATED, concurrency: 8, maxInFlightPerKey: 2, maxBatch: 1, pollMs: 10 });
    expect(all).toHaveLength(200);
  }, 60_000);
});
