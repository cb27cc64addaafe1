import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { PostgresEventStore } from './postgres-event-store';
import { AppendConditionFailedError, WrongExpectedRevisionError, type AppendCondition } from '../port';
import type { InlineProjector } from './inline';

/** A read model the conditions look at, written inline by every append (one row per stream). */
const projector: InlineProjector = {
  plan: async ({ streamId, events }) => [
    {
      lock: 'cond-test',
      table: 'cond_rows',
      columns: [{ name: 'tag', type: 'text' }],
      rows: [{ id: streamId, doc: { last: events[events.length - 1].type }, values: { tag: events[events.length - 1].type } }],
    },
  ],
};

const noTag = (tag: string): AppendCondition => ({ name: `no-${tag}`, sql: `NOT EXISTS (SELECT 1 FROM cond_rows WHERE tag = $1)`, params: [tag] });
const event = (type: string) => ({ id: randomUUID(), type, data: {} });

describe('PostgreSQL append conditions (one statement with the append)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await createTestDatabase('es_conditions');
    store = await PostgresEventStore.create({ poolConfig: { connectionString: db.url }, listen: false });
    const { Client } = await import('pg');
    const c = new Client({ connectionString: db.url });
    await c.connect();
    await c.query(`CREATE TABLE cond_rows (id text PRIMARY KEY, doc jsonb NOT NULL, tag text)`);
    await c.end();
    store.useInlineProjections(projector);
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  it('appends (and writes its rows) when every condition holds', async () => {
    await store.appendToStream('a', [event('Red')], 'no_stream', { conditions: [noTag('Blue'), noTag('Green')] });
    expect((await store.readStream('a')).map((e) => e.type)).toEqual(['Red']);
  });

  it('writes nothing, and says which conditions were stated, when one fails', async () => {
    const failed = store.appendToStream('b', [event('Blue')], 'no_stream', { conditions: [noTag('Green'), noTag('Red')] });
    await expect(failed).rejects.toBeInstanceOf(AppendConditionFailedError);
    await expect(failed).rejects.toMatchObject({ streamId: 'b', conditions: ['no-Green', 'no-Red'] });
    expect(await store.readStream('b')).toEqual([]);
    const { rows } = await (store as any).pool.query(`SELECT id FROM cond_rows WHERE id = 'b'`);
    expect(rows).toEqual([]);
  });

  it('a stream that exists is a plain conflict with its real revision, in the same round trip', async () => {
    await store.appendToStream('c', [event('Gray')], 'no_stream');
    await expect(store.appendToStream('c', [event('Gray')], 'no_stream', { conditions: [noTag('Purple')] })).rejects.toMatchObject({
      constructor: WrongExpectedRevisionError,
      actual: 0n,
    });
  });

  it('an append retried with the same event ids is still recognised as done', async () => {
    const events = [event('Teal'), event('Teal')];
    const first = await store.appendToStream('d', events, 'no_stream', { conditions: [noTag('Purple')] });
    const again = await store.appendToStream('d', events, 'no_stream', { conditions: [noTag('Purple')] });
    expect(again).toEqual(first);
  });

  it('orders a long append by revision, not by its text (9 before 10)', async () => {
    const events = Array.from({ length: 12 }, () => event('Long'));
    const result = await store.appendToStream('e', events, 'no_stream', { conditions: [noTag('Purple')] });
    expect(result.nextExpectedRevision).toBe(11n);
  });
});
