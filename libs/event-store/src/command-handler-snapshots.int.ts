import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { handleCommand, type CommandDecider } from './command-handler';
import { PostgresEventStore } from './postgres/postgres-event-store';
import { PostgresSnapshotStore, SNAPSHOTS_MIGRATION } from './postgres/postgres-snapshots';
import { migrate } from './postgres/migrations';
import type { Snapshotting, SnapshotStore } from './snapshots';
import { streamType } from './typed';

type Event = { type: 'Added'; data: { n: number } };
type State = { total: number; count: number };
const decider: CommandDecider<{ add: number[] }, Event, State> = {
  initialState: { total: 0, count: 0 },
  decide: (c) => c.add.map((n) => ({ type: 'Added', data: { n } })),
  evolve: (s, e) => ({ total: s.total + e.data.n, count: s.count + 1 }),
};
const sums = streamType<Event, [string]>({ Added: true }, (id) => `sum-${id}`);
const isState = (json: unknown): json is State => typeof json === 'object' && json !== null && typeof (json as State).total === 'number' && typeof (json as State).count === 'number';

describe('handleCommand with snapshots (a long stream folded from its snapshot)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  let snapshots: SnapshotStore;
  let reads: { streamId: string; fromRevision?: bigint }[];
  const using = (every: number, version = 'sum-1', restore = (j: unknown) => (isState(j) ? j : undefined)): Snapshotting<State> => ({ store: snapshots, version, every, restore });
  const add = (id: string, add: number[], s: Snapshotting<State>) => handleCommand(store, sums(id), decider, () => ({ add }), { snapshots: s });
  const stored = async (id: string) => (await pool.query(`SELECT version, revision::int, state FROM es_snapshots WHERE stream_id = $1`, [`sum-${id}`])).rows[0];

  beforeAll(async () => {
    db = await createTestDatabase('es_snapshots');
    pool = new Pool({ connectionString: db.url, max: 4 });
    await migrate(pool, [SNAPSHOTS_MIGRATION]);
    store = await PostgresEventStore.create({ pool, listen: false });
    snapshots = new PostgresSnapshotStore(pool);
    const read = store.readStream.bind(store);
    store.readStream = (streamId, options) => (reads.push({ streamId, ...options }), read(streamId, options));
  });
  beforeEach(() => (reads = []));
  afterAll(async () => {
    await store.close();
    await pool.end();
    await db.drop();
  });

  it('takes a snapshot once `every` events were folded past the last, and reads only what follows it', async () => {
    await add('a', [1, 2, 3], using(5));
    expect(await stored('a')).toBeUndefined();
    await add('a', [4, 5], using(5)); // revisions 3 and 4: five events since none
    expect(await stored('a')).toEqual({ version: 'sum-1', revision: 4, state: { total: 15, count: 5 } });
    reads = [];
    const { state } = await add('a', [6], using(5));
    expect(state).toEqual({ total: 21, count: 6 });
    expect(reads).toEqual([{ streamId: 'sum-a', fromRevision: 4n }]);
    expect((await stored('a')).revision).toBe(4); // one event past it: not yet due
  });

  it('a command that appends nothing still snapshots a long stream it had to fold whole', async () => {
    await add('b', [1, 1, 1, 1, 1, 1], using(100));
    await add('b', [], using(6));
    expect(await stored('b')).toMatchObject({ revision: 5, state: { total: 6, count: 6 } });
  });

  it('ignores a snapshot whose event the stream does not hold at its revision (a store restored apart), and folds the whole stream', async () => {
    await add('c', [1, 2], using(2));
    await pool.query(`UPDATE es_snapshots SET state = '{"total": 1000, "count": 2}', event_id = gen_random_uuid() WHERE stream_id = 'sum-c'`);
    const { state } = await add('c', [3], using(100));
    expect(state).toEqual({ total: 6, count: 3 });
    expect(reads.at(-1)).toEqual({ streamId: 'sum-c' });
  });

  it('ignores a snapshot ahead of the stream, of another version, or of a shape `restore` refuses', async () => {
    await add('d', [1, 2], using(2));
    await pool.query(`UPDATE es_snapshots SET revision = 7, state = '{"total": 1000, "count": 8}' WHERE stream_id = 'sum-d'`);
    expect((await add('d', [3], using(100))).state).toEqual({ total: 6, count: 3 });
    await add('e', [1, 2], using(2, 'sum-0'));
    expect((await add('e', [3], using(100, 'sum-1'))).state).toEqual({ total: 6, count: 3 });
    expect(reads.at(-1)).toEqual({ streamId: 'sum-e' });
    await add('f', [1, 2], using(2));
    expect((await add('f', [3], using(100, 'sum-1', () => undefined))).state).toEqual({ total: 6, count: 3 });
    expect(reads.at(-1)).toEqual({ streamId: 'sum-f' });
  });

  it('an older snapshot never replaces a newer one of the same version; a new version does', async () => {
    await add('g', [1, 1, 1, 1], using(2));
    expect((await stored('g')).revision).toBe(3);
    await snapshots.write('sum-g', 'sum-1', { revision: 1n, eventId: '00000000-0000-4000-8000-000000000000', state: { total: 2, count: 2 } });
    expect((await stored('g')).revision).toBe(3);
    await snapshots.write('sum-g', 'sum-2', { revision: 1n, eventId: '00000000-0000-4000-8000-000000000000', state: { total: 2, count: 2 } });
    expect(await stored('g')).toMatchObject({ version: 'sum-2', revision: 1 });
  });

  it('a stream found short is read whole without asking for a snapshot (one round trip), until it has one', async () => {
    let asked = 0;
    const counting: SnapshotStore = { read: (id, v) => (asked++, snapshots.read(id, v)), write: (id, v, s) => snapshots.write(id, v, s) };
    const s = { ...using(4), store: counting };
    await add('i', [1], s); // nothing known: asks, finds none, reads whole (1 event: short)
    await add('i', [1], s); // known short: does not ask
    expect(asked).toBe(1);
    await add('i', [1, 1], s); // revision 3: four events, a snapshot is taken
    await add('i', [1], s); // asks again, and reads from it
    expect(asked).toBe(2);
    expect(reads.at(-1)).toEqual({ streamId: 'sum-i', fromRevision: 3n });
  });

  it('a snapshot store that fails costs a full read, never the command', async () => {
    const failing: SnapshotStore = { read: () => Promise.reject(new Error('down')), write: () => Promise.reject(new Error('down')) };
    await add('h', [1, 2, 3], using(1));
    const { state } = await handleCommand(store, sums('h'), decider, () => ({ add: [4] }), { snapshots: { ...using(1), store: failing } });
    expect(state).toEqual({ total: 10, count: 4 });
  });
});
