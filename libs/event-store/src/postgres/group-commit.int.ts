import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { PostgresEventStore } from './postgres-event-store';
import { AppendConditionFailedError, WrongExpectedRevisionError, type AppendCondition } from '../port';
import type { InlineProjector } from './inline';

/**
 * One row per stream, written inline. An event typed `Claim:<id>` also claims row `<id>` as new
 * (guarded: it must not exist), as a new charge claims its payload location.
 */
const projector: InlineProjector = {
  plan: async ({ streamId, events, optimistic, read }) => {
    const rows = [{ id: streamId, doc: { n: events.length }, values: { tag: events[events.length - 1].type } }] as { id: string; doc: unknown; values: object; guard?: { before: unknown } }[];
    for (const e of events.filter((x) => x.type.startsWith('Claim:'))) {
      const id = e.type.slice('Claim:'.length);
      const before = optimistic ? null : ((await read('group_rows', [id])).get(id) ?? null);
      rows.push({ id, doc: { claimedBy: streamId }, values: { tag: 'claim' }, guard: { before } });
    }
    return [{ lock: 'group-test', table: 'group_rows', columns: [{ name: 'tag', type: 'text' }], rows: rows as never }];
  },
};

const noTag = (tag: string): AppendCondition => ({ name: `no-${tag}`, sql: `NOT EXISTS (SELECT 1 FROM group_rows WHERE tag = $1)`, params: [tag] });
const event = (type: string) => ({ id: randomUUID(), type, data: {} });

describe('PostgreSQL group commit and shared stream reads: concurrent appends at exact revisions, and reads, share statements', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let pool: Pool;
  let statements = 0;
  const rowsOf = async (ids: string[]) => (await pool.query(`SELECT id, doc FROM group_rows WHERE id = ANY($1) ORDER BY id`, [ids])).rows;

  beforeAll(async () => {
    db = await createTestDatabase('es_group_commit');
    pool = testPool(db.url);
    // The store's own pool, counting what is sent through it.
    const query = pool.query.bind(pool);
    pool.query = ((...args: Parameters<Pool['query']>) => (statements++, (query as any)(...args))) as Pool['query'];
    // Nobody listens here: no NOTIFY statements in the counts.
    store = await PostgresEventStore.create({ pool, listen: false, notifyOthers: () => false, groupCommit: { maxInFlight: 1, maxBatch: 64 } });
    await pool.query(`CREATE TABLE group_rows (id text PRIMARY KEY, doc jsonb NOT NULL, tag text)`);
    store.useInlineProjections(projector);
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
    await db.drop();
  });

  it('appends 40 new streams in one statement, each with its rows and its own revision and position', async () => {
    const streams = Array.from({ length: 40 }, (_, i) => `new-${i}`);
    const before = statements;
    const results = await Promise.all(streams.map((s, i) => store.appendToStream(s, Array.from({ length: 1 + (i % 3) }, () => event('Red')), 'no_stream')));
    expect(statements - before).toBe(1);
    results.forEach((r, i) => expect(r.nextExpectedRevision).toBe(BigInt(i % 3)));
    expect(new Set(results.map((r) => r.position)).size).toBe(40);
    for (const [i, s] of streams.entries()) expect((await store.readStream(s)).map((e) => e.revision)).toEqual(Array.from({ length: 1 + (i % 3) }, (_, k) => BigInt(k)));
    const rows = new Map((await rowsOf(streams)).map((r) => [r.id, r.doc.n]));
    expect(streams.map((s) => rows.get(s))).toEqual(streams.map((_, i) => 1 + (i % 3)));
  });

  it('answers each append its own outcome: existing streams conflict, failed conditions refuse, the rest append', async () => {
    await store.appendToStream('exists-1', [event('Gray'), event('Gray')], 'no_stream');
    const retried = [event('Teal')];
    const first = await store.appendToStream('retried', retried, 'no_stream');
    const before = statements;
    const outcomes = await Promise.allSettled([
      store.appendToStream('fresh-1', [event('Green')], 'no_stream', { conditions: [noTag('Purple')] }),
      store.appendToStream('exists-1', [event('Gray')], 'no_stream', { conditions: [noTag('Purple')] }),
      store.appendToStream('refused-1', [event('Blue')], 'no_stream', { conditions: [noTag('Gray')] }),
      store.appendToStream('retried', retried, 'no_stream', { conditions: [noTag('Purple')] }),
      store.appendToStream('fresh-2', [event('Green'), event('Green')], 'no_stream', { conditions: [noTag('Purple')] }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ constructor: WrongExpectedRevisionError, actual: 1n });
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ constructor: AppendConditionFailedError, conditions: ['no-Gray'] });
    expect((outcomes[3] as PromiseFulfilledResult<unknown>).value).toEqual(first);
    expect((outcomes[4] as PromiseFulfilledResult<{ nextExpectedRevision: bigint }>).value.nextExpectedRevision).toBe(1n);
    // One group statement, then the idempotent retry's own explanation (two reads), as alone.
    expect(statements - before).toBe(1 + 2);
    expect(await store.readStream('refused-1')).toEqual([]);
    expect((await store.readStream('exists-1')).length).toBe(2);
    expect((await rowsOf(['fresh-1', 'fresh-2', 'refused-1'])).map((r) => r.id)).toEqual(['fresh-1', 'fresh-2']);
  });

  it('groups appends to existing streams at their exact revision beside new ones, each answered its own outcome', async () => {
    await store.appendToStream('old-1', [event('Gray')], 'no_stream');
    await store.appendToStream('old-2', [event('Gray'), event('Gray')], 'no_stream');
    const before = statements;
    const outcomes = await Promise.allSettled([
      store.appendToStream('old-1', [event('Red'), event('Red')], 0n),
      store.appendToStream('old-2', [event('Red')], 0n),
      store.appendToStream('young-1', [event('Red')], 'no_stream'),
      store.appendToStream('young-1b', [event('Red')], 5n),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect(statements - before).toBe(1);
    expect((outcomes[0] as PromiseFulfilledResult<{ nextExpectedRevision: bigint }>).value.nextExpectedRevision).toBe(2n);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ constructor: WrongExpectedRevisionError, actual: 1n });
    expect((outcomes[3] as PromiseRejectedResult).reason).toMatchObject({ constructor: WrongExpectedRevisionError, actual: 'no_stream' });
    expect((await store.readStream('old-1')).map((e) => [e.revision, e.type])).toEqual([[0n, 'Gray'], [1n, 'Red'], [2n, 'Red']]);
    expect((await store.readStream('old-2')).length).toBe(2);
    expect((await rowsOf(['old-1', 'old-2'])).map((r) => r.doc.n)).toEqual([2, 2]);
  });

  it('reads of several streams made at once share one statement, each answered its own events', async () => {
    await store.appendToStream('read-1', [event('A'), event('B')], 'no_stream');
    await store.appendToStream('read-2', [event('C')], 'no_stream');
    const before = statements;
    const [one, two, none, oneAgain] = await Promise.all(['read-1', 'read-2', 'read-none', 'read-1'].map((s) => store.readStream(s)));
    expect(statements - before).toBe(1);
    expect(one.map((e) => [e.streamId, e.revision, e.type])).toEqual([['read-1', 0n, 'A'], ['read-1', 1n, 'B']]);
    expect(two.map((e) => e.type)).toEqual(['C']);
    expect(none).toEqual([]);
    expect(oneAgain).toEqual(one);
    expect(oneAgain[0].data).not.toBe(one[0].data);
  });

  it('two appends creating the same stream at once: exactly one wins', async () => {
    const outcomes = await Promise.allSettled([store.appendToStream('twin', [event('A')], 'no_stream'), store.appendToStream('twin', [event('B')], 'no_stream'), store.appendToStream('other-of-twin', [event('C')], 'no_stream')]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
    expect((await store.readStream('twin')).length).toBe(1);
  });

  it('a guard that fails undoes the group; each append then runs alone and only the stale one plans again', async () => {
    await store.appendToStream('owner', [event('Claim:taken')], 'no_stream');
    const outcomes = await Promise.allSettled([
      store.appendToStream('claimer', [event('Claim:taken')], 'no_stream'),
      store.appendToStream('bystander-1', [event('Red')], 'no_stream'),
      store.appendToStream('bystander-2', [event('Claim:free')], 'no_stream'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    // The claimer's second plan read the row and overwrote it under a guard that held.
    expect((await rowsOf(['taken', 'free'])).map((r) => r.doc.claimedBy)).toEqual(['bystander-2', 'claimer']);
    for (const s of ['claimer', 'bystander-1', 'bystander-2']) expect((await store.readStream(s)).length).toBe(1);
  });

  it('a concurrent writer of one stream fails the group without losing the others', async () => {
    const held = await pool.connect();
    try {
      // Another transaction has appended to `raced` but not committed: the group waits on it.
      await held.query('BEGIN');
      await held.query(`INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data) VALUES ('raced', 0, $1, 'Held', '{}')`, [randomUUID()]);
      const appends = Promise.allSettled(['raced', 'calm-1', 'calm-2'].map((s) => store.appendToStream(s, [event('Red')], 'no_stream')));
      await new Promise((r) => setTimeout(r, 200));
      await held.query('COMMIT');
      const outcomes = await appends;
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
      expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({ constructor: WrongExpectedRevisionError, actual: 0n });
    } finally {
      held.release();
    }
    expect((await rowsOf(['calm-1', 'calm-2', 'raced'])).map((r) => r.id)).toEqual(['calm-1', 'calm-2']);
  });
});
