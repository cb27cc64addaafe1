import type { Pool } from 'pg';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { INTAKE_SKIPPED_RETENTION_MS, pruneIntakeSkipped } from './intake-skipped';
import { ensureOutboxSchema } from './schema';
import { Harness } from './testing/harness';

// endToEndIds skipped at intake are remembered for a retention, not for ever (ADR 7).
describe('webhook delivery: endToEndIds skipped at intake', () => {
  let db: TestDatabase;
  let pool: Pool;
  const now = new Date('2026-11-27T03:00:00.000Z');
  const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);

  beforeAll(async () => {
    db = await createTestDatabase('whd_intake_skipped');
    pool = testPool(db.url, 2);
    await ensureOutboxSchema(pool);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('forgets those seen before the retention, in bounded steps, and keeps the rest', async () => {
    // 12,000 seen 31 days ago (more than one step deletes), one just inside the retention, one today.
    await pool.query(`INSERT INTO webhook_intake_skipped (end_to_end_id, seen_at) SELECT 'E-old-' || g, $1 FROM generate_series(1, 12000) g`, [daysAgo(31)]);
    await pool.query(`INSERT INTO webhook_intake_skipped (end_to_end_id, seen_at) VALUES ('E-inside', $1), ('E-today', $2)`, [daysAgo(29), now]);
    const before = new Date(now.getTime() - INTAKE_SKIPPED_RETENTION_MS);
    expect(await pruneIntakeSkipped(pool, before)).toBe(10_000);
    expect(await pruneIntakeSkipped(pool, before)).toBe(2_000);
    expect(await pruneIntakeSkipped(pool, before)).toBe(0);
    const { rows } = await pool.query<{ e: string }>('SELECT end_to_end_id AS e FROM webhook_intake_skipped ORDER BY 1');
    expect(rows.map((r) => r.e)).toEqual(['E-inside', 'E-today']);
  });

  it('is pruned by a running delivery worker (at its start, then every minute with the due keys repair)', async () => {
    const h = await Harness.open(db.url);
    try {
      const real = Date.now();
      await pool.query(`INSERT INTO webhook_intake_skipped (end_to_end_id, seen_at) VALUES ('E-worker-old', $1), ('E-worker-new', $2)`, [new Date(real - 31 * 86_400_000), new Date(real)]);
      await h.startWorker();
      const left = async () => (await pool.query<{ e: string }>(`SELECT end_to_end_id AS e FROM webhook_intake_skipped WHERE end_to_end_id LIKE 'E-worker-%' ORDER BY 1`)).rows.map((r) => r.e);
      for (const deadline = Date.now() + 10_000; (await left()).length > 1 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
      expect(await left()).toEqual(['E-worker-new']);
    } finally {
      await h.stopWorkers();
      await h.close();
    }
  });
});
