import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { cobvDecider, cobvStreamId, type CobVState } from '@pix/domain';
import { PostgresEventStore } from '@pix/event-store';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { cobvProjection } from './cobv/cobv-projection';
import { ProjectionRunner } from './projection-runner';
import { replayProjection, type ReplayProgress } from './replay';
import { cobvCommand, testRecebedor } from './testing/cobv-commands';

const recebedor = testRecebedor('local');
const command = (txid: string, original: string) => cobvCommand(recebedor, txid, { original });

describe('projection runner and replay', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  let runner: ProjectionRunner<unknown>;
  const states = new Map<string, CobVState>();

  async function write(txid: string, original: string) {
    const state = states.get(txid) ?? cobvDecider.initialState;
    const events = cobvDecider.decide(command(txid, original), state);
    const expected = state.exists ? BigInt(state.revisao) : 'no_stream';
    const r = await store.appendToStream(cobvStreamId(recebedor.id, txid), events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data as any })), expected);
    states.set(txid, events.reduce(cobvDecider.evolve, state));
    return r.position;
  }
  const snapshot = async (table = 'rm_cobv') =>
    (await pool.query(`SELECT id, doc, status, revisao FROM ${table} ORDER BY id`)).rows;

  beforeAll(async () => {
    db = await createTestDatabase('replay');
    pool = testPool(db.url);
    store = await PostgresEventStore.create({ poolConfig: { connectionString: db.url } });
    runner = new ProjectionRunner(store, pool, cobvProjection as any);
    await runner.start();
  });
  afterAll(async () => {
    await runner.stop();
    await store.close();
    await pool.end();
    await db.drop();
  });

  it('applies every event once and lets a writer wait for its own write', async () => {
    for (let i = 0; i < 20; i++) {
      const position = await write(`txid${String(i).padStart(26, '0')}`, `${i + 1}.00`);
      await expect(runner.waitFor(position)).resolves.toBe(true);
    }
    const position = await write(`txid${'0'.repeat(26)}`, '99.00');
    expect(await runner.waitFor(position)).toBe(true);
    const rows = await snapshot();
    expect(rows).toHaveLength(20);
    expect(rows[0]).toMatchObject({ revisao: 1, doc: { cobranca: { valor: { original: 9900 } } } });
  });

  it('rebuilds an identical read model from the first event while writes go on, then switches atomically', async () => {
    const before = await snapshot();
    const progress: ReplayProgress[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) await write(`live${String(i).padStart(26, '0')}`, '5.00');
    })();
    const result = await replayProjection(store, pool, cobvProjection, { pageSize: 7, onProgress: (p) => progress.push(p) });
    writing = false;
    await writer;
    expect(result.phase).toBe('done');
    expect(progress.some((p) => p.phase === 'rebuilding')).toBe(true);
    // Let the live runner catch up with writes made after the switch, then compare with a pure fold.
    const last = await write(`txid${'0'.repeat(26)}`, '77.00');
    expect(await runner.waitFor(last)).toBe(true);
    const after = await snapshot();
    const expected = [...states.entries()].map(([txid, s]) => ({ id: `${recebedor.id}/${txid}`, revisao: (s as any).revisao })).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(after.map((r) => ({ id: r.id, revisao: r.revisao }))).toEqual(expected);
    // Rows untouched since before the replay are byte-identical.
    for (const row of before.filter((r) => r.id !== `${recebedor.id}/txid${'0'.repeat(26)}`)) expect(after.find((r) => r.id === row.id)).toEqual(row);
    const tables = await pool.query(`SELECT tablename FROM pg_tables WHERE tablename LIKE 'rm_cobv%'`);
    expect(tables.rows.map((r) => r.tablename)).toEqual(['rm_cobv']);
    const indexes = await pool.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'rm_cobv' AND indexname LIKE '%rebuild%'`);
    expect(indexes.rows).toEqual([]);
  });

  it('drops what a replay killed mid-rebuild left, and refuses to run beside a live replay of the same read model', async () => {
    // A replay killed (-9) mid-rebuild leaves its table, a copy of the read model so far: nobody
    // would ever drop it (an audit, 2026-11-28, after kill -9 at seeded moments of npm run replay).
    await pool.query(`CREATE TABLE rm_cobv_rebuild_1700000000000 (id text PRIMARY KEY, doc jsonb NOT NULL)`);
    await pool.query(`INSERT INTO rm_cobv_rebuild_1700000000000 VALUES ('left', '{}')`);
    await replayProjection(store, pool, cobvProjection);
    const tables = async () => (await pool.query(`SELECT tablename FROM pg_tables WHERE tablename LIKE 'rm_cobv%' ORDER BY 1`)).rows.map((r) => r.tablename);
    expect(await tables()).toEqual(['rm_cobv']);
    // A replay that is alive holds its session's lock: another one of the same read model is refused and drops nothing.
    const live = await pool.connect();
    try {
      await live.query(`SELECT pg_advisory_lock(hashtext('replay:' || $1))`, [cobvProjection.name]);
      await live.query(`CREATE TABLE rm_cobv_rebuild_1800000000000 (id text PRIMARY KEY, doc jsonb NOT NULL)`);
      await expect(replayProjection(store, pool, cobvProjection)).rejects.toThrow(/another replay of cobv is running/);
      expect(await tables()).toEqual(['rm_cobv', 'rm_cobv_rebuild_1800000000000']);
      await live.query(`SELECT pg_advisory_unlock(hashtext('replay:' || $1))`, [cobvProjection.name]);
    } finally {
      live.release();
    }
    await replayProjection(store, pool, cobvProjection);
    expect(await tables()).toEqual(['rm_cobv']);
    // The lock's session is its own, not one of the pool's: a pool of one still rebuilds.
    const one = new Pool({ connectionString: db.url, max: 1 });
    try {
      expect((await replayProjection(store, one, cobvProjection)).phase).toBe('done');
    } finally {
      await one.end();
    }
  });
});
