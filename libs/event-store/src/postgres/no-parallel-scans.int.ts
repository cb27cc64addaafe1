import type { Pool } from 'pg';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { EVENTS_BY_ID_SQL, READ_STREAM_SQL, READ_STREAMS_SQL } from './append-sql';
import { PostgresEventStore } from './postgres-event-store';

/** Whether a plan (EXPLAIN's JSON) has a node that runs in parallel workers. */
function parallel(node: { 'Node Type': string; 'Parallel Aware'?: boolean; Plans?: unknown[] }): boolean {
  return node['Node Type'].startsWith('Gather') || node['Parallel Aware'] === true || (node.Plans ?? []).some((p) => parallel(p as never));
}

/**
 * The store's reads by key never start parallel workers (migration 0011), whatever the
 * statistics say: here there are none (never analyzed, as after a bulk load with autovacuum off)
 * and the session makes parallel plans as cheap as they can be, which the control shows is enough
 * to get one without the table setting.
 */
describe('es_events without parallel scans', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase('es_no_parallel');
    pool = testPool(db.url, 2);
    const store = await PostgresEventStore.create({ pool, listen: false });
    await store.close();
    await pool.query(`INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data)
                      SELECT 'cobv-r/' || (g / 4), g % 4, gen_random_uuid(), 'CobVCriada', jsonb_build_object('n', g) FROM generate_series(0, 39999) g`);
  });

  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  const plansOf = async (setting: 'as migrated' | 'reset') => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      if (setting === 'reset') await client.query('ALTER TABLE es_events RESET (parallel_workers)');
      await client.query(`SET LOCAL max_parallel_workers_per_gather = 2; SET LOCAL parallel_setup_cost = 0; SET LOCAL parallel_tuple_cost = 0;
                          SET LOCAL min_parallel_table_scan_size = 0; SET LOCAL min_parallel_index_scan_size = 0`);
      const explain = async (sql: string, values: unknown[]) => (await client.query(`EXPLAIN (FORMAT JSON) ${sql}`, values)).rows[0]['QUERY PLAN'][0].Plan;
      const ids = Array.from({ length: 16 }, (_, i) => `cobv-r/${i * 97}`);
      const uuids = (await client.query(`SELECT array_agg(event_id) AS a FROM (SELECT event_id FROM es_events LIMIT 16) x`)).rows[0].a;
      const plans = {
        streams: await explain(READ_STREAMS_SQL, [ids]),
        stream: await explain(READ_STREAM_SQL, [ids[0]]),
        byId: await explain(EVENTS_BY_ID_SQL, [uuids]),
      };
      return Object.fromEntries(Object.entries(plans).map(([name, plan]) => [name, parallel(plan)]));
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  };

  it('plans no read by stream or event id in parallel', async () => {
    expect(await plansOf('as migrated')).toEqual({ streams: false, stream: false, byId: false });
  });

  it('control: without the table setting, the same session plans the shared stream read in parallel', async () => {
    expect((await plansOf('reset')).streams).toBe(true);
  });
});
