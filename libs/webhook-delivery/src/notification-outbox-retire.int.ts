import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { cashIn, Harness, waitFor } from './testing/harness';
import { TestReceiver } from './testing/test-receiver';

// A key that moves from one receiver to another (`admin key remove`, then `key add` elsewhere):
// its notifications are the old owner's Pix and must never reach the next owner's webhook, neither
// as a pending retry nor by a resend (delivery looks the webhook up by the key alone).
describe('notification outbox: retireKey()', () => {
  let db: TestDatabase;
  let h: Harness;
  let oldOwner: TestReceiver;
  let newOwner: TestReceiver;

  beforeAll(async () => {
    db = await createTestDatabase('whd_retire');
    h = await Harness.open(db.url);
    oldOwner = await TestReceiver.start({ responder: () => ({ status: 500 }) });
    newOwner = await TestReceiver.start();
  });
  afterAll(async () => {
    await h?.close();
    await oldOwner?.close();
    await newOwner?.close();
    await db?.drop();
  });

  it("cancels the key's pending notifications and keeps all of them from resends, other keys untouched", async () => {
    h.registrations.urls.set('moving', oldOwner.baseUrl);
    h.registrations.urls.set('staying', newOwner.baseUrl);
    const pending = (await h.outbox.enqueue(cashIn('moving'))).id;
    const delivered = (await h.outbox.enqueue(cashIn('staying'))).id;
    await h.startWorker({ schedule: [300, 300, 300, 300, 300, 300], jitter: 0 });
    await waitFor('the old owner refused the first attempt', () => oldOwner.requests.length >= 1);
    await waitFor('the other key delivered', async () => (await h.status(delivered)) === 'delivered');

    expect(await h.outbox.retireKey('moving', 'chave moving removida do recebedor a')).toBe(1);
    // The next owner registers a webhook for the key: the old owner's retry must not go there.
    h.registrations.urls.set('moving', newOwner.baseUrl);
    expect(await h.outbox.get(pending)).toMatchObject({ status: 'cancelled', reason: 'chave moving removida do recebedor a' });
    await new Promise((r) => setTimeout(r, 1_000)); // several retry periods
    expect(newOwner.requests.map((r) => r.url)).toEqual(['/pix']); // the other key's one POST only
    // Resends skip it, by id and by time range; the other key's notification is still resendable.
    expect(await h.outbox.resend({ ids: [pending] })).toBe(0);
    expect(await h.outbox.resend({ from: new Date(0) })).toBe(1);
    await waitFor('the other key delivered again', () => newOwner.requests.length === 2);
    expect(await h.outbox.get(pending)).toMatchObject({ status: 'cancelled' });
    // Retiring again changes nothing.
    expect(await h.outbox.retireKey('moving', 'again')).toBe(0);
    expect(await h.outbox.get(pending)).toMatchObject({ reason: 'chave moving removida do recebedor a' });
  });
});
