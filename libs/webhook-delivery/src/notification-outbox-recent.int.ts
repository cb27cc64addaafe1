import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { NotificationOutbox } from './notification-outbox';
import { cashIn, Harness, waitFor } from './testing/harness';
import { TestReceiver } from './testing/test-receiver';

// The operator's (and the sandbox dashboard's) list: newest first, each with its own attempt log.
describe('notification outbox: recent()', () => {
  let db: TestDatabase;
  let h: Harness;
  let receiver: TestReceiver;
  // Creation times one minute apart (in the past, so the worker finds them due), so "newest
  // first" does not hang on millisecond ties.
  const start = Date.now() - 3_600_000;
  let minute = 0;
  const clock = { now: () => new Date(start + minute * 60_000) };

  beforeAll(async () => {
    db = await createTestDatabase('whd_recent');
    h = await Harness.open(db.url);
    receiver = await TestReceiver.start({ responder: (_req, i) => ({ status: i === 0 ? 500 : 200 }) });
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
    await db?.drop();
  });

  it('lists the newest notifications first, at most `limit`, each with its attempts oldest first', async () => {
    expect(await h.outbox.recent(10)).toEqual([]);
    const outbox = await NotificationOutbox.create(h.pool, clock);
    const ids: string[] = [];
    for (const chave of ['k-a', 'k-b', 'k-c']) {
      minute += 1;
      ids.push((await outbox.enqueue(cashIn(chave))).id);
    }
    h.registrations.urls.set('k-b', receiver.baseUrl);
    await h.startWorker({ schedule: [50, 50, 50], jitter: 0 });
    await waitFor('k-b delivered on its 2nd attempt', async () => (await h.outbox.get(ids[1]))?.status === 'delivered');

    const all = await h.outbox.recent(50);
    expect(all.map((n) => n.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(all[1].attempts.map((a) => [a.attempt, a.statusCode, a.outcome, a.url])).toEqual([
      [1, 500, 'retry', `${receiver.baseUrl}/pix`],
      [2, 200, 'delivered', `${receiver.baseUrl}/pix`],
    ]);
    expect(all[1]).toMatchObject({ chave: 'k-b', status: 'delivered', attempts: [expect.objectContaining({ error: 'HTTP 500' }), expect.objectContaining({ error: null })] });
    // No webhook for k-a and k-c: the worker cancels them without an HTTP attempt.
    await waitFor('k-a and k-c cancelled', async () => (await h.outbox.recent(50)).filter((n) => n.status === 'cancelled').length === 2);
    expect((await h.outbox.recent(50)).map((n) => [n.chave, n.attempts.length])).toEqual([['k-c', 0], ['k-b', 2], ['k-a', 0]]);
    expect((await h.outbox.recent(2)).map((n) => n.id)).toEqual([ids[2], ids[1]]);
  });
});
