import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { PostgresEventStore } from '@pix/event-store';
import { cobvProjection, indexDdl, replayProjection, tableDdl, type Projection } from '@pix/read-models';
import { closedLoop, type Durations, type Point } from './load';
import type { SeedEvent } from './fixtures';

/** Storage ceiling of item 1: single-row INSERT transactions (autocommit) of the PUT body into a jsonb column. */
export async function rawInsertCeiling(url: string, concurrency: number, body: string, d: Durations): Promise<Point> {
  const pool = new Pool({ connectionString: url, max: concurrency });
  try {
    await pool.query('CREATE TABLE IF NOT EXISTS bench_raw_put (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, doc jsonb NOT NULL)');
    await Promise.all(Array.from({ length: concurrency }, () => pool.query('SELECT 1'))); // open every connection first
    return await closedLoop(concurrency, d, () => pool.query('INSERT INTO bench_raw_put (doc) VALUES ($1)', [body]));
  } finally {
    await pool.end();
  }
}

export interface AppendResults {
  store: Point;
  raw: Point;
}

/**
 * Item 2, writes: PostgresEventStore appends (new stream each, expected no_stream) against raw
 * multi-row INSERTs of the same rows into a plain table with the same columns (identity key
 * only). Both in a scratch schema, so the seeded event log stays pure cobv.
 */
export async function appendBench(url: string, concurrency: number, eventsPerAppend: number, data: Record<string, unknown>, d: Durations): Promise<AppendResults> {
  const poolConfig = { connectionString: url, max: concurrency, options: '-c search_path=bench_scratch' };
  const admin = new Pool(poolConfig);
  await admin.query('CREATE SCHEMA IF NOT EXISTS bench_scratch');
  await admin.query(`CREATE TABLE IF NOT EXISTS raw_events (
    global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, stream_id text NOT NULL, stream_revision bigint NOT NULL,
    event_id uuid NOT NULL, event_type text NOT NULL, data jsonb NOT NULL, metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
    recorded_at timestamptz NOT NULL DEFAULT clock_timestamp())`);
  const store = await PostgresEventStore.create({ poolConfig, listen: false });
  const tag = `${Date.now().toString(36)}-${eventsPerAppend}`;
  let n = 0;
  try {
    const events = () => Array.from({ length: eventsPerAppend }, () => ({ id: randomUUID(), type: 'BenchEvent', data }));
    const storePoint = await closedLoop(concurrency, d, () => store.appendToStream(`bench-${tag}-${n++}`, events(), 'no_stream'));
    const json = JSON.stringify(data);
    const values = Array.from({ length: eventsPerAppend }, (_, i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, 'BenchEvent', $${i * 4 + 4}, '{}')`).join(', ');
    const sql = `INSERT INTO raw_events (stream_id, stream_revision, event_id, event_type, data, metadata) VALUES ${values}`;
    const rawPoint = await closedLoop(concurrency, d, () => {
      const stream = `raw-${tag}-${n++}`;
      return admin.query(sql, Array.from({ length: eventsPerAppend }, (_, i) => [stream, i, randomUUID(), json]).flat());
    });
    return { store: storePoint, raw: rawPoint };
  } finally {
    await store.close();
    await admin.end();
  }
}

/**
 * Seeds the event log in bulk, in the exact rows PostgresEventStore.appendToStream writes for a
 * new stream (revision 0, metadata {}, transaction id and recorded_at by their defaults), 2,000
 * per INSERT; then moves the location-id sequence past the seeded ids like the app would.
 */
export async function seedEventLog(url: string, events: SeedEvent[]): Promise<number> {
  const store = await PostgresEventStore.create({ poolConfig: { connectionString: url, max: 2 }, listen: false });
  await store.close();
  const pool = new Pool({ connectionString: url, max: 2 });
  const started = performance.now();
  try {
    for (let i = 0; i < events.length; i += 2000) {
      const batch = events.slice(i, i + 2000).map((e) => ({ s: e.streamId, id: e.id, type: e.type, data: e.data }));
      await pool.query(
        `INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
         SELECT e->>'s', 0, (e->>'id')::uuid, e->>'type', e->'data', '{}'::jsonb FROM jsonb_array_elements($1::jsonb) e`,
        [JSON.stringify(batch)],
      );
    }
    await pool.query('CREATE SEQUENCE IF NOT EXISTS cobv_location_id_seq');
    await pool.query(`SELECT setval('cobv_location_id_seq', $1)`, [events.length]);
  } finally {
    await pool.end();
  }
  return (events.length * 1000) / (performance.now() - started);
}

export interface ReadResults {
  events: number;
  /** Mean of two timed scans, one before readAll and one after the replay. */
  rawScan: number;
  rawScanRuns: number[];
  readAll: number;
  replay: number;
  /** Rows per second of the fair write ceiling: the same final rows bulk-loaded into an identical table, indexes built after. */
  bulkLoad: number;
}

/** readAll's SELECT without the snapshot condition (ORDER BY qualified: the output columns are text). */
const RAW_SCAN_SQL = `SELECT event_id::text, stream_id, stream_revision::text, event_type, data, metadata, recorded_at,
  global_position::text, transaction_id::text FROM es_events
  WHERE (es_events.transaction_id, es_events.global_position) > ($1::text::xid8, $2::bigint)
  ORDER BY es_events.transaction_id, es_events.global_position LIMIT 2000`;

/**
 * The raw ordered scan: that SELECT, paged by key 2,000 rows at a time, rows left as node-postgres
 * returns them. (One unpaged SELECT is slower in node-postgres, which holds all 100,000 rows at
 * once; a server-side cursor is slower still: measured while writing this bench.)
 */
async function rawScan(pool: Pool): Promise<number> {
  let tx = '0';
  let gp = '0';
  let rows = 0;
  for (;;) {
    const page = await pool.query<{ transaction_id: string; global_position: string }>(RAW_SCAN_SQL, [tx, gp]);
    if (page.rows.length === 0) return rows;
    rows += page.rows.length;
    ({ transaction_id: tx, global_position: gp } = page.rows[page.rows.length - 1]);
  }
}

/**
 * Item 2, reads (events/s): the raw ordered scan (once to warm the cache, then timed before
 * readAll and after the replay), readAll in pages of 500, and replayProjection of cobv
 * (default page size, like `npm run replay`), which also builds rm_cobv.
 */
export async function readBench(url: string): Promise<ReadResults> {
  const pool = new Pool({ connectionString: url, max: 4 });
  const store = await PostgresEventStore.create({ pool, listen: false });
  try {
    const timedScan = async () => {
      const started = performance.now();
      return ((await rawScan(pool)) * 1000) / (performance.now() - started);
    };
    const rowCount = await rawScan(pool);
    const scanBefore = await timedScan();
    let t = performance.now();
    let after: string | undefined;
    let read = 0;
    for (;;) {
      const page = await store.readAll({ after, maxCount: 500 });
      if (page.length === 0) break;
      read += page.length;
      after = page[page.length - 1].position;
    }
    const readAll = (read * 1000) / (performance.now() - t);
    t = performance.now();
    const result = await replayProjection(store, pool, cobvProjection);
    const replay = (result.events * 1000) / (performance.now() - t);
    const scanAfter = await timedScan();
    // Per event: the ceiling loads one row per event here (every seeded event creates one charge).
    const bulk = await bulkLoadCeiling(pool);
    return { events: rowCount, rawScan: (scanBefore + scanAfter) / 2, rawScanRuns: [scanBefore, scanAfter], readAll, replay, bulkLoad: (bulk.rows * 1000) / bulk.ms };
  } finally {
    await store.close();
    await pool.end();
  }
}

/** Waits (up to 15 s) until the server has room for `needed` more connections beside everyone else's. */
export async function waitForConnectionSlots(admin: Pool, needed: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { rows } = await admin.query<{ used: number; max: number }>(
      `SELECT count(*)::int AS used, current_setting('max_connections')::int AS max FROM pg_stat_activity WHERE backend_type = 'client backend'`,
    );
    if (rows[0].used + needed <= rows[0].max - 2 || Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * The replay's fair write ceiling: rm_cobv's final rows, read into memory first (untimed), then
 * loaded into an empty table of the same columns in multi-row INSERTs of 5,000 rows (one JSON
 * parameter each, the cheapest way to send many rows with node-postgres; COPY needs a package
 * the project does not ship), then the same indexes built, all timed.
 */
export async function bulkLoadCeiling(pool: Pool): Promise<{ rows: number; ms: number }> {
  const columns = ['id text', 'doc jsonb', ...cobvProjection.columns.map((c) => `${c.name} ${c.sqlType.replace(/\s+NOT NULL\s*$/i, '')}`)];
  const names = columns.map((c) => c.split(' ')[0]);
  const { rows } = await pool.query<Record<string, unknown>>(`SELECT ${names.join(', ')} FROM rm_cobv`);
  const pages: string[] = [];
  for (let i = 0; i < rows.length; i += 5000) pages.push(JSON.stringify(rows.slice(i, i + 5000)));
  await pool.query('DROP TABLE IF EXISTS bench_bulk_cobv');
  await pool.query(tableDdl(cobvProjection as Projection<unknown>, 'bench_bulk_cobv', { indexes: false }));
  const started = performance.now();
  for (const page of pages)
    await pool.query(`INSERT INTO bench_bulk_cobv (${names.join(', ')}) SELECT ${names.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS r(${columns.join(', ')})`, [page]);
  await pool.query(indexDdl(cobvProjection as Projection<unknown>, 'bench_bulk_cobv'));
  const ms = performance.now() - started;
  await pool.query('DROP TABLE bench_bulk_cobv');
  return { rows: rows.length, ms };
}
