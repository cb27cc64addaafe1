import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { handleCommand, type CommandDecider } from './command-handler';
import { PostgresEventStore } from './postgres/postgres-event-store';
import type { InlineProjector } from './postgres/inline';
import { streamType } from './typed';

type CounterEvent = { type: 'Opened'; data: { by: string } } | { type: 'Bumped'; data: { to: number } };
type State = { open: boolean; n: number };
type Command = { type: 'OpenOrBump'; by: string; blocked: boolean };

/** Opens a counter, or bumps an open one; refuses while `blocked` (what a condition stands for). */
const decider: CommandDecider<Command, CounterEvent, State> = {
  initialState: { open: false, n: 0 },
  decide: (c, s) => {
    if (c.blocked) throw new Error('blocked');
    return s.open ? [{ type: 'Bumped', data: { to: s.n + 1 } }] : [{ type: 'Opened', data: { by: c.by } }];
  },
  evolve: (s, e) => (e.type === 'Opened' ? { open: true, n: 0 } : { ...s, n: e.data.to }),
};
const counter = streamType<CounterEvent, [string]>({ Opened: true, Bumped: true }, (id) => `counter-${id}`);
const projector: InlineProjector = {
  plan: async ({ streamId }) => [{ lock: 'counter-test', table: 'counter_rows', columns: [], rows: [{ id: streamId, doc: { seen: true }, values: {} }] }],
};

describe('handleCommand, assuming a new stream (HandleOptions.assumeNew)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let sent: string[] | undefined;
  const original = Client.prototype.query;
  beforeAll(async () => {
    db = await createTestDatabase('es_assume_new');
    store = await PostgresEventStore.create({ poolConfig: { connectionString: db.url }, listen: false });
    const c = new Client({ connectionString: db.url });
    await c.connect();
    await c.query(`CREATE TABLE counter_rows (id text PRIMARY KEY, doc jsonb NOT NULL); CREATE TABLE blocks (id text PRIMARY KEY)`);
    await c.end();
    store.useInlineProjections(projector);
    Client.prototype.query = function (this: Client, ...args: any[]) {
      const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
      // The coalesced wake-up NOTIFY of an earlier append is not this command's.
      if (sent && typeof text === 'string' && !text.includes('pg_notify')) sent.push(text);
      return (original as any).apply(this, args);
    } as any;
  });
  afterAll(async () => {
    Client.prototype.query = original;
    await store.close();
    await db.drop();
  });

  const notBlocked = (id: string) => ({ name: 'not-blocked', sql: 'NOT EXISTS (SELECT 1 FROM blocks WHERE id = $1)', params: [id] });
  const run = async (id: string, blocked = async () => false) => {
    sent = [];
    const contexts: boolean[] = [];
    const result = await handleCommand(
      store,
      counter(id),
      decider,
      async (_s, _r, { assumedNew }) => {
        contexts.push(assumedNew);
        return { type: 'OpenOrBump' as const, by: id, blocked: assumedNew ? false : await blocked() };
      },
      { assumeNew: { conditions: [notBlocked(id)] } },
    );
    const statements = sent;
    sent = undefined;
    return { result, statements, contexts };
  };

  it('a new stream: one statement, no read', async () => {
    const { result, statements, contexts } = await run('one');
    expect(result.events.map((e) => e.type)).toEqual(['Opened']);
    expect(result.state).toEqual({ open: true, n: 0 });
    expect(contexts).toEqual([true]);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('INSERT INTO es_events');
  });

  it('an existing stream: the guess fails in its own round trip, then the ordinary read, decide and append', async () => {
    await run('two');
    const { result, statements, contexts } = await run('two');
    expect(result.events).toEqual([{ type: 'Bumped', data: { to: 1 } }]);
    expect(contexts).toEqual([true, false]);
    expect(statements).toHaveLength(3);
    expect((await store.readStream('counter-two')).map((e) => e.type)).toEqual(['Opened', 'Bumped']);
  });

  it('a condition that does not hold: nothing written by the guess; the ordinary path decides with what it reads', async () => {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    await c.query(`INSERT INTO blocks VALUES ('three')`);
    await c.end();
    await expect(run('three', async () => true)).rejects.toThrow('blocked');
    expect(await store.readStream('counter-three')).toEqual([]);
  });

  it('without the store capability the conditions are read, never assumed', async () => {
    const plain = Object.create(store, { capabilities: { value: { inlineProjections: true, appendConditions: false } } });
    const contexts: boolean[] = [];
    await handleCommand(plain, counter('four'), decider, (_s, _r, { assumedNew }) => (contexts.push(assumedNew), { type: 'OpenOrBump' as const, by: 'x', blocked: false }), {
      assumeNew: { conditions: [notBlocked('four')] },
    });
    expect(contexts).toEqual([false]);
  });
});
