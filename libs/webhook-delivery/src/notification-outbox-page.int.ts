import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { PAGE_SETTINGS, pageParams, pageSql, type OutboxPageQuery } from './outbox-page';
import { cashIn, Harness } from './testing/harness';

// The operator's listing (GET /notifier/notifications): a status filter and keyset pages that stay
// exact while notifications keep arriving, each read through an index; and "resend every dead one
// since X" in one call.
describe('notification outbox: page() and resend by status', () => {
  let db: TestDatabase;
  let h: Harness;
  const ROWS = 3_000;
  let since: Date;

  beforeAll(async () => {
    db = await createTestDatabase('whd_page');
    h = await Harness.open(db.url);
    // One batch: its rows are a microsecond apart, so a millisecond cursor would repeat or skip rows.
    await h.outbox.enqueueMany(Array.from({ length: ROWS }, (_, i) => cashIn(`page-key-${i % 7}`)));
    await h.pool.query(`UPDATE webhook_outbox SET status = CASE WHEN random() < 0.01 OR end_to_end_id LIKE '%00' THEN 'dead' ELSE 'delivered' END`);
    since = new Date();
    await h.pool.query('ANALYZE webhook_outbox');
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  const idsInOrder = async (status?: string) =>
    (await h.pool.query<{ id: string }>(`SELECT id FROM webhook_outbox ${status ? `WHERE status = '${status}'` : ''} ORDER BY created_at DESC, id DESC`)).rows.map((r) => r.id);

  /** Every page of `query`, with `between` run after each page. */
  const pageThrough = async (query: Omit<OutboxPageQuery, 'before'>, between: () => Promise<unknown> = async () => undefined) => {
    const seen: string[] = [];
    let before: OutboxPageQuery['before'];
    for (let pages = 0; pages < 1_000; pages++) {
      const { items, next } = await h.outbox.page({ ...query, ...(before ? { before } : {}) });
      seen.push(...items.map((n) => n.id));
      if (query.status) expect(items.every((n) => n.status === query.status)).toBe(true);
      if (!next) return seen;
      const [at, id] = next.split(',');
      before = { at, id };
      await between();
    }
    throw new Error('no last page');
  };

  it('pages through the dead ones only, newest first, none repeated or skipped while new ones arrive', async () => {
    const dead = await idsInOrder('dead');
    expect(dead.length).toBeGreaterThan(20);
    const seen = await pageThrough({ status: 'dead', limit: 7 }, async () => {
      const { rows } = await h.pool.query<{ id: string }>('SELECT id FROM webhook_outbox LIMIT 0');
      await h.outbox.enqueueMany([cashIn('page-key-new'), cashIn('page-key-new')]);
      await h.pool.query(`UPDATE webhook_outbox SET status = 'dead' WHERE chave = 'page-key-new'`);
      return rows;
    });
    expect(seen).toEqual(dead);
  });

  it('pages through every notification exactly once, and `before` may be an instant alone', async () => {
    const all = await idsInOrder();
    expect(await pageThrough({ limit: 200 })).toEqual(all);
    const { rows } = await h.pool.query<{ id: string }>(`SELECT id FROM webhook_outbox WHERE created_at < $1 ORDER BY created_at DESC, id DESC LIMIT 5`, [since]);
    expect((await h.outbox.page({ limit: 5, before: { at: since.toISOString() } })).items.map((n) => n.id)).toEqual(rows.map((r) => r.id));
  });

  it.each([
    ['dead', { status: 'dead' as const, limit: 50, before: { at: new Date().toISOString(), id: '00000000-0000-0000-0000-000000000000' } }, 'webhook_outbox_dead_idx'],
    ['all', { limit: 50, before: { at: new Date().toISOString() } }, 'webhook_outbox_created_idx'],
    ['delivered', { status: 'delivered' as const, limit: 50 }, 'webhook_outbox_created_idx'],
  ])('reads a page of %s through an index, never the whole table', async (_name, query, index) => {
    const client = await h.pool.connect();
    await client.query(`BEGIN; ${PAGE_SETTINGS}`);
    const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${pageSql(query)}`, pageParams(query));
    await client.query('ROLLBACK');
    client.release();
    const plan = JSON.stringify(rows[0]['QUERY PLAN']);
    expect(plan).toContain(`"Index Name":"${index}"`);
    expect(plan).not.toContain('Seq Scan');
  });

  it('resends every dead notification of a period in one call, and nothing delivered', async () => {
    const dead = await h.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_outbox WHERE status = 'dead' AND created_at >= $1`, [since]);
    const delivered = await h.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_outbox WHERE status = 'delivered'`);
    expect(dead.rows[0].n).toBeGreaterThan(0);
    expect(await h.outbox.resend({ status: 'dead', from: since })).toBe(dead.rows[0].n);
    expect((await h.pool.query(`SELECT count(*)::int AS n FROM webhook_outbox WHERE status = 'delivered'`)).rows[0].n).toBe(delivered.rows[0].n);
    expect((await h.pool.query(`SELECT count(*)::int AS n FROM webhook_outbox WHERE status = 'dead' AND created_at >= $1`, [since])).rows[0].n).toBe(0);
    // The older dead ones were not in the period: still dead.
    expect((await h.pool.query(`SELECT count(*)::int AS n FROM webhook_outbox WHERE status = 'dead'`)).rows[0].n).toBeGreaterThan(0);
  });
});
