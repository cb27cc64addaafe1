import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { cashIn, Harness, sleep, waitFor } from './testing/harness';
import { TestReceiver } from './testing/test-receiver';

/** Production's default: a receiver on a loopback or private address gets nothing, whatever its URL says. */
describe('webhook delivery: private targets refused when sending', () => {
  let db: TestDatabase;
  let h: Harness;
  let receiver: TestReceiver;

  beforeAll(async () => {
    db = await createTestDatabase('whd_ssrf');
    h = await Harness.open(db.url);
    receiver = await TestReceiver.start();
    await h.startWorker({ allowPrivateTargets: false, schedule: [50, 50] });
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
    await db?.drop();
  });

  it.each([
    ['an address literal', () => receiver.baseUrl.replace('localhost', '127.0.0.1')],
    ['a name resolving to loopback', () => receiver.baseUrl.replace('127.0.0.1', 'localhost')],
  ])('refuses %s: attempts logged as errors, nothing received, then dead', async (name, url) => {
    const key = `key-${name.replace(/\W/g, '')}`;
    h.registrations.urls.set(key, url());
    const { id } = await h.outbox.enqueue(cashIn(key));
    const dead = await waitFor('dead', async () => (await h.outbox.get(id))?.status === 'dead');
    expect(dead).toBeTruthy();
    const attempts = await h.outbox.attempts(id);
    expect(attempts).toHaveLength(3);
    for (const a of attempts) expect(a.error).toMatch(/private|loopback|reserved/);
    await sleep(50);
    expect(receiver.byId(id)).toEqual([]);
  });
});
