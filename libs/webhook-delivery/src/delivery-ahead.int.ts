import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { cashIn, Harness, waitFor } from './testing/harness';

describe('webhook delivery: claims ahead of free slots, claims at intake, slot handover', () => {
  let db: TestDatabase;
  let h: Harness;

  beforeAll(async () => {
    db = await createTestDatabase('whd_ahead');
    h = await Harness.open(db.url);
  });
  afterEach(() => h.stopWorkers());
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  it('a stopping worker hands back what it claimed and never started: no lease left, no attempt counted', async () => {
    const slow = await h.receiver({ responder: () => ({ status: 200, delayMs: 400 }) });
    h.registrations.urls.set('key-S', slow.baseUrl);
    h.registrations.urls.set('key-T', slow.baseUrl);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await h.outbox.enqueue(cashIn(i % 2 ? 'key-T' : 'key-S'))).id);
    // 2 POSTs open and 2 more claimed ahead: each key's first lane (2) holds two of them.
    await h.startWorker({ concurrency: 2, maxInFlightPerKey: 4, maxBatch: 1 });
    await waitFor('2 POSTs open', () => slow.inFlight === 2);
    const { rows: leased } = await h.pool.query(`SELECT count(*)::int AS n FROM webhook_outbox WHERE lease_until IS NOT NULL`);
    expect(leased[0].n).toBe(4);

    await h.stopWorkers();
    const { rows } = await h.pool.query(`SELECT id, status, attempt_count, lease_until FROM webhook_outbox WHERE id = ANY($1::uuid[])`, [ids]);
    expect(rows.filter((r) => r.status === 'delivered')).toHaveLength(slow.requests.length);
    expect(slow.requests).toHaveLength(2);
    for (const r of rows.filter((r) => r.status === 'pending')) expect(r).toMatchObject({ attempt_count: 0, lease_until: null });
  }, 20_000);

  it('unbatched, a slot goes from one result to the key\'s next due notification: in order, never more than the lane in flight', async () => {
    const r = await h.receiver({ responder: () => ({ status: 200, delayMs: 10 }) });
    h.registrations.urls.set('key-H', r.baseUrl);
    const e2e: string[] = [];
    for (let i = 0; i < 40; i++) {
      const input = cashIn('key-H');
      e2e.push(input.endToEndId);
      await h.outbox.enqueue(input);
    }
    await h.startWorker({ concurrency: 16, maxInFlightPerKey: 1, maxBatch: 1 });
    await waitFor('all 40 delivered', async () => (await h.outbox.stats()).pending === 0, 20_000);
    // One lane: each POST started after the previous one ended, oldest first.
    const order = r.requests.map((q) => (JSON.parse(q.body) as { pix: { endToEndId: string }[] }).pix[0].endToEndId);
    expect(order).toEqual(e2e);
    expect(r.maxInFlight).toBe(1);
  }, 30_000);

  it("the intake's enqueueMany claims in its own round trip: sent at once with the loop asleep, and what finds no free slot waits for the loop", async () => {
    const r = await h.receiver({ responder: () => ({ status: 200, delayMs: 300 }) });
    h.registrations.urls.set('key-I', r.baseUrl);
    // The loop's first claim finds nothing; polling every minute, only the intake's claim can start a POST.
    const worker = await h.startWorker({ concurrency: 1, maxInFlightPerKey: 1, maxBatch: 1, pollMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const first = [cashIn('key-I'), cashIn('key-I')];
    expect(await worker.enqueueMany([...first, first[0]])).toEqual({ created: 2 });
    await waitFor('the first POST open', () => r.inFlight === 1, 2000);
    const { rows } = await h.pool.query(`SELECT end_to_end_id, lease_until IS NOT NULL AS leased FROM webhook_outbox WHERE end_to_end_id = ANY($1) ORDER BY created_at`, [first.map((i) => i.endToEndId)]);
    // The second was claimed ahead too (2 × concurrency), but its key's lane (1) was full.
    expect(rows).toEqual([{ end_to_end_id: first[0].endToEndId, leased: true }, { end_to_end_id: first[1].endToEndId, leased: false }]);
    // The first POST's end passes its slot on (handover, or the claim of the loop it wakes): no poll is waited for.
    await waitFor('both delivered', async () => (await h.outbox.stats()).pending === 0, 5000);
    expect(r.requests.map((q) => (JSON.parse(q.body) as { pix: { endToEndId: string }[] }).pix[0].endToEndId)).toEqual(first.map((i) => i.endToEndId));
    expect(await worker.enqueueMany(first)).toEqual({ created: 0 });
  }, 20_000);
});
