import { randomUUID } from 'node:crypto';
import { Client, type Pool } from 'pg';
import { cobvDecider, cobvStreamId } from '@pix/domain';
import { migrate, PostgresEventStore } from '@pix/event-store';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { cobvProjection } from './cobv/cobv-projection';
import { locProjection } from './loc/loc-projection';
import { enableInlineProjections } from './inline';
import { projectionMigration } from './projection-runner';
import { replayProjection } from './replay';
import type { Projection } from './projection';
import { cobvCommand, testRecebedor } from './testing/cobv-commands';

// An inline append (ADR 14) locks its read-model tables when PostgreSQL plans the statement, then
// takes the projection's advisory lock (shared) as the statement runs. Whatever else takes that
// advisory lock exclusively and then touches the same table (a replay's switch-over renaming it, a
// start-up's table DDL, a replay's first step) must take the table lock first, in the writers'
// order: the other order deadlocked, and PostgreSQL aborted a PUT /cobv (500) or the replay
// (an audit, 2026-11-28: 2 of 4 replays under 8 writers, 2 of 6 instance starts).

const recebedor = testRecebedor('r1');
const command = (txid: string, locId: number) => cobvCommand(recebedor, txid, { loc: { id: locId, location: `h/qr/v2/cobv/${txid}` } });

describe('projection locks are taken in the inline writers order', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  const projections: Projection<any>[] = [cobvProjection, locProjection];
  let next = 1;

  /** A new charge, appended with its rows written inline. */
  async function newCharge(): Promise<string> {
    const txid = `lock${String(next).padStart(26, '0')}`;
    const events = cobvDecider.decide(command(txid, next++), cobvDecider.initialState);
    await store.appendToStream(cobvStreamId(recebedor.id, txid), events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data as any })), 'no_stream', { prior: [] });
    return `${recebedor.id}/${txid}`;
  }
  const waitingFor = async (sql: string) => {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) if (Number((await pool.query(sql)).rows[0].n) > 0) return;
    throw new Error(`nobody waited: ${sql}`);
  };
  const ungrantedOn = (table: string) => `SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND relation = to_regclass('${table}')`;

  beforeAll(async () => {
    db = await createTestDatabase('lock_order');
    pool = testPool(db.url);
    store = await PostgresEventStore.create({ poolConfig: { connectionString: db.url, max: 10 } });
    await migrate(pool, projections.map((p) => projectionMigration(p)));
    await enableInlineProjections(store, pool, projections);
    for (let i = 0; i < 5; i++) await newCharge();
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
    await db.drop();
  });

  it('a replay switches over while an inline writer holds the table and waits for the projection lock; both succeed', async () => {
    const gate = new Client({ connectionString: db.url });
    const writer = new Client({ connectionString: db.url });
    await gate.connect();
    await writer.connect();
    try {
      // Holds the replay once it has checked its table, before it reads the first event.
      await gate.query('BEGIN');
      await gate.query('LOCK TABLE es_events IN ACCESS EXCLUSIVE MODE');
      const replay = replayProjection(store, pool, cobvProjection, { pageSize: 2 });
      replay.catch(() => undefined);
      await waitingFor(ungrantedOn('es_events'));
      // An inline append's locks, in its order: the table (planned), then the projection (run).
      await writer.query('BEGIN');
      await writer.query('LOCK TABLE rm_cobv IN ROW EXCLUSIVE MODE');
      await gate.query('COMMIT');
      // The replay has rebuilt and reached the switch-over, which renames rm_cobv.
      await waitingFor(ungrantedOn('rm_cobv'));
      const projectionLock = writer.query(`SELECT pg_advisory_xact_lock_shared(hashtext('projection:' || $1))`, [cobvProjection.name]).then(() => writer.query('COMMIT'));
      projectionLock.catch(() => undefined);
      const [replayed, locked] = await Promise.allSettled([replay, projectionLock]);
      expect([replayed.status, locked.status, (replayed as PromiseRejectedResult).reason?.message, (locked as PromiseRejectedResult).reason?.message]).toEqual(['fulfilled', 'fulfilled', undefined, undefined]);
      // And a real inline append after the switch writes the new table.
      const id = await newCharge();
      expect((await pool.query('SELECT id FROM rm_cobv WHERE id = $1', [id])).rows).toEqual([{ id }]);
      expect(Number((await pool.query('SELECT count(*) AS n FROM rm_cobv')).rows[0].n)).toBe(6);
    } finally {
      await gate.end();
      await writer.end();
    }
  }, 30_000);

  it('a start-up migration checks a table while an inline writer holds it and waits for the projection lock; both succeed', async () => {
    // An inline append's locks, in its order: the table (planned), then the projection (run).
    const writer = new Client({ connectionString: db.url });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query('LOCK TABLE rm_cobv IN ROW EXCLUSIVE MODE');
      const migration = migrate(pool, [projectionMigration(cobvProjection)]);
      migration.catch(() => undefined);
      await waitingFor(ungrantedOn('rm_cobv'));
      const projectionLock = writer.query(`SELECT pg_advisory_xact_lock_shared(hashtext('projection:' || $1))`, [cobvProjection.name]).then(() => writer.query('COMMIT'));
      projectionLock.catch(() => undefined);
      const [migrated, locked] = await Promise.allSettled([migration, projectionLock]);
      expect([migrated.status, locked.status, (migrated as PromiseRejectedResult).reason?.message, (locked as PromiseRejectedResult).reason?.message]).toEqual(['fulfilled', 'fulfilled', undefined, undefined]);
    } finally {
      await writer.end();
    }
  }, 30_000);
});
