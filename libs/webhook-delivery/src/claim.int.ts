import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { claimDue, composeBody, type ClaimRequest } from './claim';
import { notificationIdFor } from './notification-id';
import { cashIn, Harness } from './testing/harness';

/** The claim's grouping rules, one at a time, on the function the workers call (one round trip). */
describe('webhook delivery: claimDue', () => {
  let db: TestDatabase;
  let h: Harness;
  const e2eIds = (body: string) => (JSON.parse(body) as { pix: { endToEndId: string }[] }).pix.map((p) => p.endToEndId);
  const request = (over: Partial<ClaimRequest> = {}): ClaimRequest => {
    const now = new Date(Date.now() + 1000); // every row enqueued so far is due
    return { now, limit: 10, maxInFlightPerKey: 2, maxBatch: 3, leaseUntil: new Date(now.getTime() + 10_000), ...over };
  };
  // One statement: due times a microsecond apart in this order (one by one, two could share a millisecond).
  const enqueue = async (chave: string, n: number) => {
    const inputs = Array.from({ length: n }, () => cashIn(chave));
    await h.outbox.enqueueMany(inputs);
    return { ids: inputs.map((i) => notificationIdFor(i.endToEndId)), e2e: inputs.map((i) => i.endToEndId) };
  };
  const bodyOf = async (id: string) => (await h.pool.query<{ body: string }>('SELECT body FROM webhook_outbox WHERE id = $1', [id])).rows[0].body;
  const expire = (ids: string[]) => h.pool.query(`UPDATE webhook_outbox SET lease_until = now() - interval '1 second' WHERE id = ANY($1)`, [ids]);

  beforeAll(async () => {
    db = await createTestDatabase('whd_claim');
    h = await Harness.open(db.url);
  });
  beforeEach(() => h.pool.query('TRUNCATE webhook_outbox_attempts, webhook_outbox, webhook_batch'));
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  it('packs new Pix, in due order, into batches of the key size, at most `free` per key; a batch body is its items joined, stored before it is sent', async () => {
    const { ids, e2e } = await enqueue('claim-pack', 7);
    const claims = await claimDue(h.pool, request());
    expect(claims.map((c) => c.items)).toEqual([ids.slice(0, 3), ids.slice(3, 6)]);
    for (const [k, c] of claims.entries()) {
      expect(ids).not.toContain(c.id);
      expect(c).toMatchObject({ chave: 'claim-pack', attempt: 1 });
      expect(e2eIds(c.body)).toEqual(e2e.slice(3 * k, 3 * k + 3));
      expect(c.body).toBe(composeBody(await Promise.all(c.items.map(bodyOf))));
      const stored = await h.pool.query('SELECT body, item_count FROM webhook_batch WHERE id = $1', [c.id]);
      expect(stored.rows).toEqual([{ body: c.body, item_count: 3 }]);
    }
    // The seventh had no free slot: untouched.
    const seventh = await h.pool.query('SELECT batch_id, lease_until, attempt_count FROM webhook_outbox WHERE id = $1', [ids[6]]);
    expect(seventh.rows).toEqual([{ batch_id: null, lease_until: null, attempt_count: 0 }]);
    expect(await claimDue(h.pool, request())).toEqual([]); // both slots are leased
  });

  it('a lone new Pix goes under its own id with its own body, and no batch row', async () => {
    const { ids } = await enqueue('claim-lone', 1);
    const [claim, ...rest] = await claimDue(h.pool, request());
    expect(rest).toEqual([]);
    expect(claim).toMatchObject({ id: ids[0], items: [ids[0]], body: await bodyOf(ids[0]), attempt: 1 });
    expect((await h.pool.query('SELECT count(*)::int AS n FROM webhook_batch')).rows[0].n).toBe(0);
  });

  it('a batch whose lease ended is claimed again whole (same id, bytes and items), even when the row window is smaller than the batch', async () => {
    await enqueue('claim-retry', 3);
    const [first] = await claimDue(h.pool, request());
    await expire(first.items);
    // A lane of batch 1 reads one row per free slot: the other two members are completed.
    const [again, ...rest] = await claimDue(h.pool, request({ lanes: { keys: ['claim-retry'], inFlight: [1], batch: [1] } }));
    expect(rest).toEqual([]);
    expect(again).toMatchObject({ id: first.id, body: first.body, items: first.items, attempt: 2 });
  });

  it('a batch with a member out of reach (still leased) waits whole', async () => {
    await enqueue('claim-partial', 3);
    const [first] = await claimDue(h.pool, request());
    await expire(first.items.slice(0, 2));
    expect(await claimDue(h.pool, request())).toEqual([]);
  });

  it('a Pix attempted before batching existed goes alone under its own id; new ones after it are packed', async () => {
    const { ids } = await enqueue('claim-legacy', 3);
    await h.pool.query('UPDATE webhook_outbox SET attempt_count = 1 WHERE id = $1', [ids[0]]);
    const claims = await claimDue(h.pool, request({ maxBatch: 10 }));
    expect(claims.map((c) => [c.items, c.attempt])).toEqual([
      [[ids[0]], 2],
      [ids.slice(1), 1],
    ]);
    expect(claims[0].id).toBe(ids[0]);
  });

  it('at most `limit` deliveries, oldest due key first, one key never holding up another', async () => {
    const a = await enqueue('claim-key-a', 2);
    const b = await enqueue('claim-key-b', 1);
    const c = await enqueue('claim-key-c', 1);
    const claims = await claimDue(h.pool, request({ limit: 2, maxBatch: 1 }));
    expect(claims.map((x) => x.id)).toEqual([a.ids[0], a.ids[1]]);
    const next = await claimDue(h.pool, request({ limit: 5, maxBatch: 1 }));
    expect(next.map((x) => x.id)).toEqual([b.ids[0], c.ids[0]]);
  });
});
