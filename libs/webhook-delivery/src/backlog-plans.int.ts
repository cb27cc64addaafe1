import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { claimDue } from './claim';
import { recordAttempts } from './record-attempts';
import { cashIn, Harness } from './testing/harness';

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
    for (let i = 0; i < BACKLOG; i += 2_000) await h.outbox.enqueueMany(Array.from({ length: 2_000 }, () => cashIn('backlog-key')));
  }, 120_000);
  afterAll(async () => {
    await one?.end();
    await h?.close();
    await db?.drop();
  });

  const outboxBlocks = async () => {
    await one.query('SELECT pg_stat_force_next_flush()');
    const { rows } = await one.query<{ n: string }>(
      `SELECT heap_blks_hit + heap_blks_read + idx_blks_hit + idx_blks_read AS n FROM pg_statio_user_tables WHERE relname = 'webhook_outbox'`,
    );
    return Number(rows[0].n);
  };

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
