import { Client, type Pool } from 'pg';
import { inTransaction, type EventStore, type GlobalPosition } from '@pix/event-store';
import { applyEvents } from './apply-batch';
import { INLINE_CHECKPOINT, lockProjectionForTableWork, readCheckpoint, writeCheckpoint } from './projection-runner';
import { indexDdl, indexesOf, keysOf, relevantTo, tableDdl, type Projection } from './projection';
import { ensureProjectionTable } from './table-shape';

export interface ReplayProgress {
  phase: 'rebuilding' | 'switching' | 'done';
  events: number;
  position?: GlobalPosition;
  eventsPerSecond: number;
}

/**
 * Rebuilds a read model from the first event beside the live one, then switches atomically:
 * under the projection's lock (the live runners wait), it applies what arrived meanwhile,
 * swaps the tables and moves the checkpoint in one transaction. The API keeps serving the old
 * table until that commit and the new one right after.
 */
export async function replayProjection<Row>(
  store: EventStore,
  pool: Pool,
  projection: Projection<Row>,
  options: { pageSize?: number; onProgress?(p: ReplayProgress): void } = {},
): Promise<ReplayProgress> {
  // One replay of a read model at a time, marked by a lock on a session of its own: PostgreSQL
  // frees it when the replay's process dies, so a table `<table>_rebuild_<ts>` found while it is
  // held here was left by a replay that died mid-rebuild (kill -9, a lost connection), which its
  // own clean-up (below) never ran for: a copy of the read model nobody would ever drop (an audit,
  // 2026-11-28). It is dropped now.
  // A connection beside the pool's (as the pool builds its own), so a pool of one still rebuilds.
  const session = new Client(pool.options);
  session.on('error', () => undefined); // a lost session ends the replay through its pending query, or frees the lock
  await session.connect();
  const lock = `replay:${projection.name}`;
  try {
    const { rows } = await session.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [lock]);
    if (!rows[0].ok) throw new Error(`another replay of ${projection.name} is running`);
    try {
      await dropAbandonedRebuilds(session, projection.table);
      return await rebuildAndSwitch(store, pool, projection, options);
    } finally {
      await session.query('SELECT pg_advisory_unlock(hashtext($1))', [lock]).catch(() => undefined);
    }
  } finally {
    await session.end().catch(() => undefined);
  }
}

async function dropAbandonedRebuilds(db: Pick<Pool, 'query'>, table: string): Promise<void> {
  const { rows } = await db.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND starts_with(tablename, $1)', [`${table}_rebuild_`]);
  const pattern = new RegExp(`^${table}_rebuild_\\d+$`);
  for (const { tablename } of rows) if (pattern.test(tablename)) await db.query(`DROP TABLE IF EXISTS ${tablename}`);
}

async function rebuildAndSwitch<Row>(
  store: EventStore,
  pool: Pool,
  projection: Projection<Row>,
  options: { pageSize?: number; onProgress?(p: ReplayProgress): void },
): Promise<ReplayProgress> {
  const pageSize = options.pageSize ?? 5000;
  const started = Date.now();
  const rebuild = `${projection.table}_rebuild_${started}`;
  await inTransaction(pool, async (c) => {
    await lockProjectionForTableWork(c, projection as Projection<unknown>, 'SHARE');
    await ensureProjectionTable(c, projection as Projection<unknown>);
  });
  await pool.query(tableDdl(projection as Projection<unknown>, rebuild, { indexes: false }));
  const written = new Set<string>();
  let position: GlobalPosition | undefined;
  let count = 0;
  const report = (phase: ReplayProgress['phase']) => {
    const p = { phase, events: count, position, eventsPerSecond: Math.round((count * 1000) / Math.max(1, Date.now() - started)) };
    options.onProgress?.(p);
    return p;
  };
  try {
    // Read the next page while the current ones are written, and write two pages at once when
    // they touch different rows (a page touching the previous one's rows waits for it).
    let next = store.readAll({ after: position, maxCount: pageSize });
    next.catch(() => undefined); // a failure surfaces where the page is awaited
    let writing: { done: Promise<void>; keys: Set<string>; events: number } | undefined;
    const settle = async () => {
      if (!writing) return;
      const { done, events } = writing;
      writing = undefined;
      await done;
      count += events;
      report('rebuilding');
    };
    for (;;) {
      const events = await next;
      if (events.length === 0) break;
      position = events[events.length - 1].position;
      next = store.readAll({ after: position, maxCount: pageSize });
      next.catch(() => undefined);
      const keys = new Set(relevantTo(projection, events).flatMap((e) => keysOf(projection, e)));
      if (writing && [...keys].some((k) => writing!.keys.has(k))) await settle();
      const done = inTransaction(pool, async (c) => {
        // Nobody reads the rebuild before the switch, which commits normally: a crash before it
        // loses only the rebuild, so these commits need not wait for the disk (bulk-load speed).
        await c.query('SET LOCAL synchronous_commit = off');
        await applyEvents(c, projection, rebuild, events, written);
      });
      done.catch(() => undefined); // surfaces in settle
      await settle();
      writing = { done, keys, events: events.length };
    }
    await settle();
    const indexes = indexDdl(projection as Projection<unknown>, rebuild);
    if (indexes) await pool.query(indexes);
    report('switching');
    await inTransaction(pool, async (c) => {
      // The live table is renamed below: locked before the projection, as its inline writers do.
      await lockProjectionForTableWork(c, projection as Projection<unknown>, 'ACCESS EXCLUSIVE');
      // An inline read model (ADR 14) has no runner to pick up what the switch-over leaves out: it
      // takes every committed event; its writers wait on the lock, then write the new table.
      const inline = (await readCheckpoint(c, projection.name)) === INLINE_CHECKPOINT;
      for (;;) {
        const events = await store.readAll({ after: position, maxCount: pageSize, unfenced: inline });
        if (events.length === 0) break;
        await applyEvents(c, projection, rebuild, events, written);
        count += events.length;
        position = events[events.length - 1].position;
      }
      const retired = `${projection.table}_retired_${started}`;
      await c.query(`ALTER TABLE ${projection.table} RENAME TO ${retired}`);
      await c.query(`ALTER TABLE ${rebuild} RENAME TO ${projection.table}`);
      await c.query(`DROP TABLE ${retired}`);
      await c.query(`ALTER TABLE ${projection.table} RENAME CONSTRAINT ${rebuild}_pkey TO ${projection.table}_pkey`);
      for (const index of indexesOf(projection as Projection<unknown>))
        await c.query(`ALTER INDEX ${rebuild}_${index.name}_idx RENAME TO ${projection.table}_${index.name}_idx`);
      if (inline) await writeCheckpoint(c, projection.name, INLINE_CHECKPOINT);
      else if (position) await writeCheckpoint(c, projection.name, position);
    });
  } catch (error) {
    await pool.query(`DROP TABLE IF EXISTS ${rebuild}`).catch(() => undefined);
    throw error;
  }
  return report('done');
}
