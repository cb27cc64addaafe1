import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { claimDue } from './claim';
import { recordAttempts } from './record-attempts';
import { cashIn, Harness } from './testing/harness';

/** Buffer reads of the outbox so far, by PostgreSQL's statistics (this backend's flushed first). */
async function outboxBufferReads(one: Pool): Promise<number> {
  await one.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await one.query<{ n: string }>(
    `SELECT heap_blks_hit + heap_blks_read + idx_blks_hit + idx_blks_read AS n FROM pg_statio_user_tables WHERE relname = 'webhook_outbox'`,
  );
  return Number(rows[0].n);
}

/**
 * A backlog must not make claims and results slower than a few index lookups (ADR 15): with
 * statistics from a quiet spell ("nothing is pending"), the planner read all of a key's 50,000
 * pending rows through a partial index to claim or record 8 of them (150 ms and 40 ms). Counted
 * in buffer accesses to the outbox, PostgreSQL's own statistics, which no machine noise moves.
 */
describe('webhook delivery: a backlog does not slow claims and results', () => {
  const BACKLOG = 20_000;
  let db: TestDatabase;
  let h: Harness;
  let one: Pool; // one backend, so its counters are flushed on demand

  beforeAll(async () => {
    db = await createTestDatabase('whd_backlog');
    h = await Harness.open(db.url);
    one = testPool(db.url, 1);
    // Autovacuum off: the statistics stay those of the quiet spell, whatever the test's timing.
    await h.pool.query('ALTER TABLE webhook_outbox SET (autovacuum_enabled = false)');
    const history = Array.from({ length: 2_000 }, () => cashIn('backlog-history'));
    await h.outbox.enqueueMany(history);
    await h.pool.query(`UPDATE webhook_outbox SET status = 'delivered', delivered_at = now()`);
    await h.pool.query('ANALYZE webhook_outbox');
    // Claim and record once in the quiet spell, on the connection measured below: the functions
    // keep the plans they make there (generic, per connection) for the backlog.
    const quiet = new Date();
    const [{ id }] = (await one.query<{ id: string }>('SELECT id FROM webhook_outbox LIMIT 1')).rows;
    expect(await claimDue(one, { now: quiet, limit: 8, maxInFlightPerKey: 8, maxBatch: 1, leaseUntil: new Date(quiet.getTime() + 30_000) })).toEqual([]);
    const stale = { id, chave: 'backlog-history', body: '{}', items: [id], attempt: 1, correlationIds: [null], leaseToken: randomUUID(), leaseUntil: quiet };
    const record = { at: quiet, url: 'https://receiver.example/pix', statusCode: 200, latencyMs: 5, error: null, outcome: 'delivered' as const, finishedAt: quiet };
    expect((await recordAttempts(one, [{ claim: stale, handOver: true, record }], { now: quiet, leaseToken: randomUUID(), leaseUntil: quiet })).applied).toEqual([false]);
    for (let i = 0; i < BACKLOG; i += 2_000) await h.outbox.enqueueMany(Array.from({ length: 2_000 }, () => cashIn('backlog-key')));
  }, 120_000);
  afterAll(async () => {
    await one?.end();
    await h?.close();
    await db?.drop();
  });

  const outboxBlocks = () => outboxBufferReads(one);

  it(`claims 8 and records them (handing each slot over) in a few hundred buffer accesses with ${BACKLOG.toLocaleString('en-US')} pending`, async () => {
    const pending = await one.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_outbox WHERE status = 'pending'`);
    expect(pending.rows[0].n).toBe(BACKLOG);
    const at = new Date(Date.now() + 1000);
    const lease = (now: Date) => ({ now, leaseToken: randomUUID(), leaseUntil: new Date(now.getTime() + 30_000) });

    const beforeClaim = await outboxBlocks();
    const claims = await claimDue(one, { now: at, limit: 8, maxInFlightPerKey: 8, maxBatch: 1, leaseUntil: new Date(at.getTime() + 30_000) });
    const claimBlocks = (await outboxBlocks()) - beforeClaim;
    expect(claims).toHaveLength(8);

    const beforeRecord = await outboxBlocks();
    const finishedAt = new Date(at.getTime() + 5);
    const recorded = await recordAttempts(
      one,
      claims.map((claim) => ({ claim, handOver: true, record: { at, url: 'https://receiver.example/pix', statusCode: 200, latencyMs: 5, error: null, outcome: 'delivered', finishedAt } })),
      lease(finishedAt),
    );
    const recordBlocks = (await outboxBlocks()) - beforeRecord;
    expect(recorded.applied).toEqual(Array(8).fill(true));
    expect(recorded.next).toHaveLength(8);

    // Reading the backlog costs thousands (20,000 rows, ~100 per page); by index, tens per row.
    expect(claimBlocks).toBeLessThan(600);
    expect(recordBlocks).toBeLessThan(600);
  });
});

/**
 * Keys whose receivers fail wait between retries with nothing due: a claim finds the keys due
 * now in webhook_due_keys and reads nothing of the others (ADR 15).
 */
describe('webhook delivery: keys between retries cost a claim nothing', () => {
  const RETRYING_KEYS = 5_000;
  let db: TestDatabase;
  let h: Harness;
  let one: Pool;

  beforeAll(async () => {
    db = await createTestDatabase('whd_retrying');
    h = await Harness.open(db.url);
    one = testPool(db.url, 1);
    for (let i = 0; i < RETRYING_KEYS; i += 1_000) await h.outbox.enqueueMany(Array.from({ length: 1_000 }, (_, k) => cashIn(`retrying-${i + k}`)));
    await h.pool.query(`UPDATE webhook_outbox SET next_attempt_at = now() + interval '1 hour', attempt_count = 3, batch_id = id`);
    await h.outbox.enqueueMany(Array.from({ length: 8 }, () => cashIn('zz-live')));
    await h.pool.query('ANALYZE webhook_outbox');
  }, 120_000);
  afterAll(async () => {
    await one?.end();
    await h?.close();
    await db?.drop();
  });

  it(`claims a live key's Pix past ${RETRYING_KEYS.toLocaleString('en-US')} keys with nothing due, reading none of them`, async () => {
    const now = new Date(Date.now() + 1000);
    const request = (limit: number) => ({ now, limit, maxInFlightPerKey: 8, maxBatch: 1, leaseUntil: new Date(now.getTime() + 30_000) });
    // The retry schedules were moved here by hand, not by a result: the first claim learns them
    // (as a claim after each failed attempt does, one key at a time), and takes 4 of the live key's.
    expect((await claimDue(one, request(4))).map((c) => c.chave)).toEqual(Array(4).fill('zz-live'));
    const before = await outboxBufferReads(one);
    const claims = await claimDue(one, request(4));
    const blocks = (await outboxBufferReads(one)) - before;
    expect(claims.map((c) => c.chave)).toEqual(Array(4).fill('zz-live'));
    // Walking every pending key read ~10 buffers per key (50,315 here), then ~4 per key.
    expect(blocks).toBeLessThan(200);
  });
});
