import type { Pool } from 'pg';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { claimDue, type ClaimRequest } from './claim';
import { repairDueKeys } from './due-keys-sql';
import { cashIn, Harness } from './testing/harness';

/**
 * webhook_due_keys (ADR 15): claims read the keys due now from it, so every way a notification
 * becomes due must leave its key there. Each case ends with the notification claimed.
 */
describe('webhook delivery: keys due', () => {
  let db: TestDatabase;
  let h: Harness;
  let one: Pool;
  const request = (now = new Date(Date.now() + 1000)): ClaimRequest => ({ now, limit: 10, maxInFlightPerKey: 8, maxBatch: 1, leaseUntil: new Date(now.getTime() + 30_000) });
  const dueKey = async (chave: string) => (await one.query<{ due_at: Date }>('SELECT due_at FROM webhook_due_keys WHERE chave = $1', [chave])).rows[0]?.due_at;
  const deliverAll = (chave: string) => one.query(`UPDATE webhook_outbox SET status = 'delivered', lease_until = NULL, lease_token = NULL WHERE chave = $1`, [chave]);
  const retryLater = (chave: string, minutes: number) =>
    one.query(`UPDATE webhook_outbox SET next_attempt_at = now() + make_interval(mins => $2), lease_until = NULL, lease_token = NULL WHERE chave = $1 AND status = 'pending'`, [chave, minutes]);

  beforeAll(async () => {
    db = await createTestDatabase('whd_due_keys');
    h = await Harness.open(db.url);
    one = testPool(db.url, 2);
  });
  // Each case leaves nothing pending: a later case's claims (some far in the future) see only its own.
  afterEach(() => one.query(`UPDATE webhook_outbox SET status = 'delivered', lease_until = NULL, lease_token = NULL WHERE status = 'pending'`));
  afterAll(async () => {
    await one?.end();
    await h?.close();
    await db?.drop();
  });

  it('a key whose Pix all went leaves the table at the next claim, and a new cash-in brings it back at once', async () => {
    await h.outbox.enqueueMany([cashIn('dk-gone')]);
    expect(await claimDue(one, request())).toHaveLength(1);
    await deliverAll('dk-gone');
    await claimDue(one, request());
    expect(await dueKey('dk-gone')).toBeUndefined();
    const again = cashIn('dk-gone');
    await h.outbox.enqueueMany([again]);
    expect(await dueKey('dk-gone')).toBeDefined();
    expect((await claimDue(one, request())).map((c) => c.chave)).toEqual(['dk-gone']);
  });

  it('a key between retries waits with its next schedule, is claimed when it comes, and a new cash-in or a resend is not held back by it', async () => {
    await h.outbox.enqueueMany([cashIn('dk-retry')]);
    const [first] = await claimDue(one, request());
    await retryLater('dk-retry', 10);
    expect(await claimDue(one, request())).toEqual([]); // learns the schedule
    expect((await dueKey('dk-retry'))!.getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
    expect(await claimDue(one, request(new Date(Date.now() + 11 * 60_000)))).toHaveLength(1); // its time has come

    await retryLater('dk-retry', 10);
    await claimDue(one, request());
    const fresh = cashIn('dk-retry');
    await h.outbox.enqueueMany([fresh]);
    expect((await claimDue(one, request())).map((c) => c.body)).toEqual([JSON.stringify({ pix: [fresh.pix] })]);

    await deliverAll('dk-retry');
    await claimDue(one, request());
    expect(await h.outbox.resend({ ids: [first.id] })).toBe(1);
    expect((await claimDue(one, request())).map((c) => c.id)).toEqual([first.id]);
  });

  it('a key missing from the table (written by something else) is put back by the repair', async () => {
    await h.outbox.enqueueMany([cashIn('dk-lost')]);
    await one.query(`DELETE FROM webhook_due_keys WHERE chave = 'dk-lost'`);
    expect(await claimDue(one, request())).toEqual([]);
    expect(await repairDueKeys(one)).toBeGreaterThanOrEqual(1);
    expect((await claimDue(one, request())).map((c) => c.chave)).toEqual(['dk-lost']);
  });

  it('a cash-in stored while a claim settles its key is never left without it (200 races)', async () => {
    const claimer = testPool(db.url, 1);
    try {
      for (let round = 0; round < 200; round++) {
        const chave = `dk-race-${round}`;
        await h.outbox.enqueueMany([cashIn(chave)]);
        await claimDue(claimer, request());
        await deliverAll(chave); // the key is due, with nothing pending: the next claim drops it
        const racing = cashIn(chave);
        const [during] = await Promise.all([claimDue(claimer, request()), h.outbox.enqueueMany([racing])]);
        const after = await claimDue(claimer, request());
        // Taken by the racing claim (stored first) or by the next one: either way, exactly once.
        expect({ round, claimed: [...during, ...after].map((c) => c.chave) }).toEqual({ round, claimed: [chave] });
      }
    } finally {
      await claimer.end();
    }
  }, 120_000);
});
