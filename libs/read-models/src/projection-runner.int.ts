import type { Pool } from 'pg';
import { PostgresEventStore } from '@pix/event-store';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { cobvProjection } from './cobv/cobv-projection';
import { ProjectionRunner, readCheckpoint } from './projection-runner';

// The runner reads nothing past a transaction still open anywhere in the cluster (ADR 1): with
// other suites' transactions beside it, catching up can take seconds. The waitFor deadlines
// below bound that; jest's own 5 s must not cut them short.
jest.setTimeout(30_000);

describe('projection runner: pages it does not handle', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await createTestDatabase('runner_skip');
    pool = testPool(db.url);
    store = await PostgresEventStore.create({ poolConfig: { connectionString: db.url } });
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
    await db.drop();
  });

  it('passes over other events without a transaction each, yet saves its checkpoint now and then', async () => {
    await pool.query(
      `INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data)
       SELECT 'other-' || g, 0, gen_random_uuid(), 'SomethingElse', '{}'::jsonb FROM generate_series(1, 12000) g`,
    );
    const runner = new ProjectionRunner(store, pool, cobvProjection as any);
    await runner.start();
    try {
      const { rows } = await pool.query(`SELECT transaction_id::text AS tx, max(global_position)::text AS pos FROM es_events GROUP BY transaction_id`);
      const last = `${rows[0].tx}:${rows[0].pos}`;
      await expect(runner.waitFor(last, 20_000)).resolves.toBe(true);
      const saved = await readCheckpoint(pool, cobvProjection.name);
      expect(saved).toBeDefined();
      // Saved at least once along the way (every 5,000 skipped events), never ahead of what was read.
      expect(store.comparePositions(saved!, last)).toBeLessThanOrEqual(0);
      expect(Number(saved!.split(':')[1])).toBeGreaterThanOrEqual(5000);
      expect((await pool.query('SELECT count(*)::int AS n FROM rm_cobv')).rows[0].n).toBe(0);
    } finally {
      await runner.stop();
    }
  });
});
