import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { cashIn, Harness, sleep, waitFor } from './testing/harness';

const DAY = 86_400_000;
const PARK = { status: 429, headers: { 'retry-after': '86400' } };
const e2eIds = (body: string) => (JSON.parse(body) as { pix: { endToEndId: string }[] }).pix.map((p) => p.endToEndId);

// A receiver's Retry-After parks a pending notification for up to 24 h. A resend (the operator's,
// the dashboard's) must make it due now, as the same delivery: same id, same attempt count, the
// batch whole; one in flight is left to its result.
describe('webhook delivery: resend of a pending notification', () => {
  let db: TestDatabase;
  let h: Harness;
  const receiver: Harness['receiver'] = (...args) => h.receiver(...args);
  const parked = async (id: string) => {
    const n = await h.outbox.get(id);
    return n?.status === 'pending' && n.leaseUntil === null && n.nextAttemptAt.getTime() > Date.now() + DAY - 60_000 && n;
  };

  beforeAll(async () => {
    db = await createTestDatabase('whd_resend_pending');
    h = await Harness.open(db.url);
  });
  afterEach(() => h.stopWorkers());
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  it('a notification parked by Retry-After for 24 h goes at once when resent, same id, its attempt count kept', async () => {
    const r = await receiver({ responder: (_q, i) => (i === 0 ? PARK : { status: 200 }) });
    h.registrations.urls.set('key-parked', r.baseUrl);
    await h.startWorker();
    const { id } = await h.outbox.enqueue(cashIn('key-parked'));
    await waitFor('parked by Retry-After', () => parked(id));

    expect(await h.outbox.resend({ ids: [id] })).toBe(1);
    await waitFor('delivered', async () => (await h.status(id)) === 'delivered', 5_000);
    expect(r.requests.map((q) => q.headers['webhook-id'])).toEqual([id, id]);
    expect((await h.outbox.attempts(id)).map((a) => [a.attempt, a.statusCode, a.outcome])).toEqual([
      [1, 429, 'retry'],
      [2, 200, 'delivered'],
    ]);
    // Not a new cycle: the numbering goes on, and no resend is counted.
    expect((await h.outbox.attempts(id)).map((a) => a.resend)).toEqual([0, 0]);
  });

  it('resending one member of a parked batch releases the batch whole: one POST, same webhook-id, same bytes', async () => {
    const r = await receiver({ responder: (_q, i) => (i === 0 ? PARK : { status: 200 }) });
    h.registrations.urls.set('key-batch', r.baseUrl);
    const inputs = Array.from({ length: 3 }, () => cashIn('key-batch'));
    const ids: string[] = [];
    for (const input of inputs) ids.push((await h.outbox.enqueue(input)).id);
    await h.startWorker({ maxBatch: 10 });
    await waitFor('the batch parked', async () => (await Promise.all(ids.map(parked))).every(Boolean));
    expect(e2eIds(r.requests[0].body)).toHaveLength(3);

    expect(await h.outbox.resend({ endToEndIds: [inputs[1].endToEndId] })).toBe(3);
    await waitFor('delivered', async () => (await Promise.all(ids.map((id) => h.status(id)))).every((s) => s === 'delivered'), 5_000);
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1].headers['webhook-id']).toBe(r.requests[0].headers['webhook-id']);
    expect(r.requests[1].body).toBe(r.requests[0].body);
    for (const id of ids) expect((await h.outbox.get(id))?.attemptCount).toBe(2);
  });

  it('a notification in flight (leased) is left alone: its result decides, and it is not sent twice', async () => {
    const r = await receiver({ responder: () => ({ ...PARK, delayMs: 800 }) });
    h.registrations.urls.set('key-flight', r.baseUrl);
    await h.startWorker();
    const { id } = await h.outbox.enqueue(cashIn('key-flight'));
    await waitFor('in flight', () => r.requests.length === 1);
    const before = await h.outbox.get(id);
    expect(before?.leaseUntil).not.toBeNull();

    expect(await h.outbox.resend({ ids: [id] })).toBe(0);
    expect(await h.outbox.get(id)).toMatchObject({ nextAttemptAt: before?.nextAttemptAt, leaseUntil: before?.leaseUntil, attemptCount: 1 });
    await waitFor('parked by its own result', () => parked(id));
    await sleep(300);
    expect(r.requests).toHaveLength(1);
  });

  it('a pending notification already due is not changed (nothing to release)', async () => {
    const { id } = await h.outbox.enqueue(cashIn('key-no-worker'));
    expect(await h.outbox.resend({ ids: [id] })).toBe(0);
  });
});
