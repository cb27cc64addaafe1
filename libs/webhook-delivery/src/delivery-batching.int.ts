import { createHmac } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { cashIn, Harness, sleep, waitFor } from './testing/harness';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const e2eIds = (body: string) => (JSON.parse(body) as { pix: { endToEndId: string }[] }).pix.map((p) => p.endToEndId);

describe('webhook delivery: batched callbacks', () => {
  let db: TestDatabase;
  let h: Harness;
  const receiver: Harness['receiver'] = (...args) => h.receiver(...args);
  const status = (id: string) => h.status(id);
  const allDelivered = async (ids: string[]) => (await Promise.all(ids.map(status))).every((s) => s === 'delivered');

  beforeAll(async () => {
    db = await createTestDatabase('whd_batching');
    h = await Harness.open(db.url);
  });
  afterEach(() => h.stopWorkers());
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  it('idle: a lone Pix goes at once, alone, under its own id; what arrives while it is in flight rides the next POST', async () => {
    const r = await receiver({ responder: (_q, i) => ({ status: 200, delayMs: i === 0 ? 500 : 0 }) });
    h.registrations.urls.set('key-idle', r.baseUrl);
    await h.startWorker({ maxInFlightPerKey: 1, maxBatch: 10 });
    const first = cashIn('key-idle');
    const { id } = await h.outbox.enqueue(first);
    await waitFor('the first POST', () => r.requests.length === 1);
    expect(r.requests[0].headers['webhook-id']).toBe(id);
    expect(JSON.parse(r.requests[0].body)).toEqual({ pix: [first.pix] });

    const later: string[] = [];
    for (let i = 0; i < 4; i++) later.push((await h.outbox.enqueue(cashIn('key-idle'))).id);
    await waitFor('all delivered', () => allDelivered([id, ...later]));
    expect(r.requests).toHaveLength(2);
    expect(e2eIds(r.requests[1].body)).toHaveLength(4);
    expect(later).not.toContain(r.requests[1].headers['webhook-id']);
  });

  it('under load: batches of at most WEBHOOK_MAX_BATCH, every Pix once, the signature covering the whole body', async () => {
    const r = await receiver();
    h.registrations.urls.set('key-load', r.baseUrl);
    const inputs = Array.from({ length: 25 }, () => cashIn('key-load'));
    const ids: string[] = [];
    for (const input of inputs) ids.push((await h.outbox.enqueue(input)).id);
    await h.startWorker({ maxInFlightPerKey: 2, maxBatch: 10, signingSecret: SECRET });
    await waitFor('all delivered', () => allDelivered(ids));

    expect(r.requests.map((q) => e2eIds(q.body).length)).toEqual([10, 10, 5]);
    expect(r.requests.flatMap((q) => e2eIds(q.body)).sort()).toEqual(inputs.map((i) => i.endToEndId).sort());
    const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
    for (const q of r.requests) {
      const mac = createHmac('sha256', key).update(`${q.headers['webhook-id']}.${q.headers['webhook-timestamp']}.${q.body}`).digest('base64');
      expect(q.headers['webhook-signature']).toBe(`v1,${mac}`);
    }
    // Each notification's log names the POST that carried it.
    const attempts = await h.outbox.attempts(ids[0]);
    expect(attempts).toEqual([expect.objectContaining({ outcome: 'delivered', deliveryId: r.requests[0].headers['webhook-id'], batchSize: 10 })]);
  });

  it('a failing batch is retried whole: same webhook-id, same bytes, same items', async () => {
    let refused = 0;
    const r = await receiver({ responder: (q) => ({ status: e2eIds(q.body).length === 6 && refused++ < 2 ? 503 : 200 }) });
    h.registrations.urls.set('key-retry', r.baseUrl);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await h.outbox.enqueue(cashIn('key-retry'))).id);
    await h.startWorker({ maxBatch: 10, schedule: [50, 50, 50] });
    // Meanwhile more arrive: they must not join the batch being retried.
    await waitFor('first attempt', () => r.requests.length >= 1);
    const extraInput = cashIn('key-retry');
    const extra = (await h.outbox.enqueue(extraInput)).id;
    await waitFor('all delivered', () => allDelivered([...ids, extra]));

    const tries = r.requests.filter((q) => q.headers['webhook-id'] === r.requests[0].headers['webhook-id']);
    expect(tries).toHaveLength(3);
    const [a, b, c] = tries;
    expect(e2eIds(a.body)).toHaveLength(6);
    expect([b.headers['webhook-id'], c.headers['webhook-id']]).toEqual([a.headers['webhook-id'], a.headers['webhook-id']]);
    expect([b.body, c.body]).toEqual([a.body, a.body]);
    expect((await h.outbox.attempts(ids[3])).map((x) => [x.attempt, x.statusCode, x.outcome])).toEqual([
      [1, 503, 'retry'],
      [2, 503, 'retry'],
      [3, 200, 'delivered'],
    ]);
    // The late Pix went in a POST of its own (alone, under its own id), after the batch's first try.
    expect(r.requests.filter((q) => e2eIds(q.body).includes(extraInput.endToEndId)).map((q) => q.headers['webhook-id'])).toEqual([extra]);
    // The batch's lines name its key, its first endToEndIds and how many more, on one line each.
    const [x, y, z] = e2eIds(a.body);
    const lines = h.logger.lines.filter((l) => l.includes(`webhook ${a.headers['webhook-id']} (6 Pix) attempt `));
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toContain(` for chave key-retry, endToEndIds ${x}, ${y}, ${z} and 3 more: HTTP `);
  });

  it('413 to big batches: halves are sent until they fit, and later batches stay that small', async () => {
    const r = await receiver({ responder: (q) => ({ status: e2eIds(q.body).length > 3 ? 413 : 200 }) });
    h.registrations.urls.set('key-413', r.baseUrl);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await h.outbox.enqueue(cashIn('key-413'))).id);
    await h.startWorker({ maxBatch: 12, maxInFlightPerKey: 1 });
    await waitFor('all delivered', () => allDelivered(ids), 10_000);
    const ok = r.requests.filter((q) => e2eIds(q.body).length <= 3);
    expect(ok.flatMap((q) => e2eIds(q.body))).toHaveLength(12); // each Pix accepted exactly once
    expect(r.requests[0].headers['webhook-id']).not.toBe(r.requests[1].headers['webhook-id']); // a half is a new delivery
    const [first] = e2eIds(r.requests[0].body);
    expect(h.logger.lines.find((l) => l.includes(`webhook ${r.requests[0].headers['webhook-id']} to `))).toContain(`for chave key-413, endToEndIds ${first}, `);

    const more: string[] = [];
    for (let i = 0; i < 8; i++) more.push((await h.outbox.enqueue(cashIn('key-413'))).id);
    const before = r.requests.length;
    await waitFor('the next 8 delivered', () => allDelivered(more));
    // Learned: the key now gets batches of at most 3, so no 413 any more.
    expect(r.requests.slice(before).every((q) => e2eIds(q.body).length <= 3)).toBe(true);
    // A split does not use up the schedule: the accepted attempt counts as the first.
    expect((await h.outbox.get(ids[0]))?.attemptCount).toBe(1);
  });

  it("413 with Retry-After: the halves wait as long as the receiver asks (they were sent at once)", async () => {
    let refused = 0;
    const r = await receiver({ responder: (q) => (e2eIds(q.body).length > 2 && refused++ === 0 ? { status: 413, headers: { 'retry-after': '2' } } : { status: 200 }) });
    h.registrations.urls.set('key-413-wait', r.baseUrl);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await h.outbox.enqueue(cashIn('key-413-wait'))).id);
    await h.startWorker({ maxBatch: 4, maxInFlightPerKey: 1 });
    await waitFor('all delivered', () => allDelivered(ids), 10_000);
    expect(r.requests.map((q) => e2eIds(q.body).length)).toEqual([4, 2, 2]);
    expect(r.requests[1].receivedAt - r.requests[0].receivedAt).toBeGreaterThanOrEqual(1900);
  });

  it('a resent Pix of a delivered batch goes alone under its own id', async () => {
    const r = await receiver();
    h.registrations.urls.set('key-resend', r.baseUrl);
    const inputs = Array.from({ length: 4 }, () => cashIn('key-resend'));
    const ids: string[] = [];
    for (const input of inputs) ids.push((await h.outbox.enqueue(input)).id);
    await h.startWorker({ maxBatch: 10 });
    await waitFor('delivered', () => allDelivered(ids));
    expect(r.requests).toHaveLength(1);

    expect(await h.outbox.resend({ endToEndIds: [inputs[2].endToEndId] })).toBe(1);
    await waitFor('resent', () => r.requests.length === 2);
    await sleep(50);
    expect(r.requests[1].headers['webhook-id']).toBe(ids[2]);
    expect(JSON.parse(r.requests[1].body)).toEqual({ pix: [inputs[2].pix] });
  });
});
