import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { claimDue } from './claim';
import { cashIn, Harness, waitFor } from './testing/harness';

describe('webhook delivery: slow receivers, time-outs and leases', () => {
  let db: TestDatabase;
  let h: Harness;
  const receiver: Harness['receiver'] = (...args) => h.receiver(...args);
  const status = (id: string) => h.status(id);

  beforeAll(async () => {
    db = await createTestDatabase('whd_isolation');
    h = await Harness.open(db.url);
  });
  afterEach(() => h.stopWorkers());
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  it("a slow receiver for key A does not delay key B's 20 notifications (all delivered while A's first request is in flight)", async () => {
    const slow = await receiver({ responder: () => ({ status: 200, delayMs: 3000 }) });
    const fast = await receiver();
    h.registrations.urls.set('key-A', slow.baseUrl);
    h.registrations.urls.set('key-B', fast.baseUrl);
    // A's notifications are older, so a plain oldest-first queue would hand out A's first.
    const aIds: string[] = [];
    for (let i = 0; i < 4; i++) aIds.push((await h.outbox.enqueue(cashIn('key-A'))).id);
    const bIds: string[] = [];
    for (let i = 0; i < 20; i++) bIds.push((await h.outbox.enqueue(cashIn('key-B'))).id);

    const started = Date.now();
    // One Pix per POST, so the per-key slot cap shows in request counts (batched: the next test).
    await h.startWorker({ timeoutMs: 5000, concurrency: 16, maxInFlightPerKey: 2, maxBatch: 1 });
    await waitFor("B's 20 delivered", async () => {
      const statuses = await Promise.all(bIds.map(status));
      return statuses.every((s) => s === 'delivered');
    });
    const elapsed = Date.now() - started;

    expect(fast.requests).toHaveLength(20);
    expect(slow.requests.length).toBeGreaterThanOrEqual(1);
    expect(slow.requests.every((r) => r.endedAt === undefined)).toBe(true); // A's first still unanswered
    expect(elapsed).toBeLessThan(3000);
    expect(slow.maxInFlight).toBe(2); // the per-key cap, not the worker's 16
    await waitFor('A drained', async () => (await Promise.all(aIds.map(status))).every((s) => s === 'delivered'), 30_000, 100);
    expect(slow.maxInFlight).toBe(2);
    expect(slow.requests).toHaveLength(4);
  }, 40_000);

  it("batched, with adaptive lanes: a slow key shrinks to one lane while another key's 40 Pix go in batches, unhindered", async () => {
    const slow = await receiver({ responder: () => ({ status: 200, delayMs: 1500 }) });
    const fast = await receiver();
    h.registrations.urls.set('key-C', slow.baseUrl);
    h.registrations.urls.set('key-D', fast.baseUrl);
    await h.startWorker({ timeoutMs: 5000, concurrency: 16, maxInFlightPerKey: 4, maxBatch: 5, slowResponseMs: 500 });
    const cIds: string[] = [];
    for (let i = 0; i < 30; i++) cIds.push((await h.outbox.enqueue(cashIn('key-C'))).id);
    await waitFor("C's first two batches in flight", () => slow.requests.length === 2);
    const started = Date.now();
    const dIds: string[] = [];
    for (let i = 0; i < 40; i++) dIds.push((await h.outbox.enqueue(cashIn('key-D'))).id);
    await waitFor("D's 40 delivered", async () => (await Promise.all(dIds.map(status))).every((s) => s === 'delivered'));
    expect(Date.now() - started).toBeLessThan(1500); // before C's first answer
    expect(fast.requests.every((q) => JSON.parse(q.body).pix.length <= 5)).toBe(true);
    await waitFor('C drained', async () => (await Promise.all(cIds.map(status))).every((s) => s === 'delivered'), 30_000, 100);
    // Lane start 2; after slow answers it halves to 1: C's last batches went one at a time.
    expect(slow.maxInFlight).toBe(2);
    const last = slow.requests.at(-1)!;
    const before = slow.requests.at(-2)!;
    expect(last.receivedAt).toBeGreaterThanOrEqual(before.endedAt!);
  }, 40_000);

  it('receivers that never answer, on more keys than the worker has POST slots, hold up another key for the slow threshold, not the time-out', async () => {
    const hanging = await receiver({ responder: () => ({ status: 200, delayMs: 8000 }) });
    const fast = await receiver();
    for (let i = 0; i < 6; i++) h.registrations.urls.set(`hang-${i}`, hanging.baseUrl);
    h.registrations.urls.set('healthy', fast.baseUrl);
    for (let i = 0; i < 6; i++) for (let j = 0; j < 2; j++) await h.outbox.enqueue(cashIn(`hang-${i}`));
    // 4 POST slots and 12 hanging deliveries: before, the healthy key waited for a time-out (5 s).
    await h.startWorker({ timeoutMs: 5000, concurrency: 4, maxInFlightPerKey: 2, maxBatch: 1, slowResponseMs: 300, pollMs: 50 });
    await waitFor('the worker has every POST slot on a hanging receiver', () => hanging.requests.length >= 4);
    const started = Date.now();
    const id = (await h.outbox.enqueue(cashIn('healthy'))).id;
    await waitFor('the healthy key delivered', async () => (await status(id)) === 'delivered', 8000);
    const waited = Date.now() - started;
    expect({ waited, underTwoAndAHalfSeconds: waited < 2500 }).toEqual({ waited, underTwoAndAHalfSeconds: true });
    // The tests below share this outbox: nothing of these keys may stay due for their claims.
    for (let i = 0; i < 6; i++) await h.outbox.retireKey(`hang-${i}`, 'test over');
  });

  it('a time-out is retried; the lease outlives the time-out and no second attempt starts while the first is in flight', async () => {
    const r = await receiver({ responder: (_req, i) => (i === 0 ? { status: 200, delayMs: 5000 } : { status: 200 }) });
    h.registrations.urls.set('key-timeout', r.baseUrl);
    const config = { timeoutMs: 800, leaseMarginMs: 5000, schedule: [50, 50], jitter: 0, pollMs: 10 };
    // Two workers on separate connections, polling fast: either could steal a badly leased job.
    await h.startWorker(config, true);
    await h.startWorker(config, true);
    const { id } = await h.outbox.enqueue(cashIn('key-timeout'));

    const inFlight = await waitFor('first request in flight', async () => {
      const n = await h.outbox.get(id);
      return r.requests.length === 1 && n?.leaseUntil ? n : undefined;
    });
    // Lease = claim time + timeoutMs + margin, so well beyond the request deadline.
    expect(inFlight.leaseUntil!.getTime() - r.requests[0].receivedAt).toBeGreaterThanOrEqual(800 + 5000 - 200);

    await waitFor('delivered', async () => (await status(id)) === 'delivered', 10_000);
    expect(r.requests).toHaveLength(2);
    const [first, second] = r.requests;
    expect(first.answered).toBe(false); // our side gave up (time-out) ...
    expect(second.receivedAt).toBeGreaterThanOrEqual(first.endedAt!); // ... before the retry began
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(800 - 50);
    expect(second.headers['webhook-id']).toBe(id);
    const attempts = await h.outbox.attempts(id);
    expect(attempts.map((a) => a.outcome)).toEqual(['retry', 'delivered']);
    expect(attempts[0]).toMatchObject({ statusCode: null, error: 'timeout after 800 ms' });
    expect(attempts[0].latencyMs).toBeGreaterThanOrEqual(790);
  });

  it("a claim whose worker died mid-request is not sent again before its lease ends, then it is retried", async () => {
    const r = await receiver();
    h.registrations.urls.set('key-crash', r.baseUrl);
    const { id } = await h.outbox.enqueue(cashIn('key-crash'));
    // A "worker" that claims with the real claim query and then vanishes without recording.
    const claimedAt = Date.now();
    const leaseUntil = new Date(claimedAt + 1500);
    const [claim] = await claimDue(h.pool, { now: new Date(), limit: 10, maxInFlightPerKey: 2, leaseUntil });
    expect(claim).toMatchObject({ id, attempt: 1 });

    await h.startWorker({ pollMs: 10 });
    await waitFor('delivered after the lease', async () => (await status(id)) === 'delivered', 5000);
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0].receivedAt).toBeGreaterThanOrEqual(leaseUntil.getTime());
    // The lost attempt counted against the schedule: the takeover is attempt 2.
    expect((await h.outbox.attempts(id)).map((a) => a.attempt)).toEqual([2]);
  });
});
