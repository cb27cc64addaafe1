import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { notificationIdFor } from './notification-id';
import { cashIn, Harness } from './testing/harness';

// The notifier's intake stores a whole Kafka batch at once: one statement, once per endToEndId.
describe('notification outbox: enqueueMany()', () => {
  let db: TestDatabase;
  let h: Harness;

  beforeAll(async () => {
    db = await createTestDatabase('whd_many');
    h = await Harness.open(db.url);
  });
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  it('stores a batch in one statement, each row as enqueue would, in the order given', async () => {
    const batch = Array.from({ length: 300 }, () => cashIn('key-many'));
    const statements: string[] = [];
    const query = h.pool.query.bind(h.pool);
    h.pool.query = ((text: unknown, ...rest: unknown[]) => (statements.push(String(text)), (query as any)(text, ...rest))) as typeof h.pool.query;
    try {
      expect(await h.outbox.enqueueMany(batch)).toEqual({ created: 300 });
    } finally {
      h.pool.query = query;
    }
    expect(statements).toHaveLength(1);
    const { rows } = await h.pool.query(`SELECT id, end_to_end_id, chave, txid, body, status, attempt_count FROM webhook_outbox WHERE chave = 'key-many' ORDER BY next_attempt_at, id`);
    expect(rows.map((r) => r.end_to_end_id)).toEqual(batch.map((b) => b.endToEndId));
    expect(rows[7]).toEqual({ id: notificationIdFor(batch[7].endToEndId), end_to_end_id: batch[7].endToEndId, chave: 'key-many', txid: batch[7].txid, body: JSON.stringify({ pix: [batch[7].pix] }), status: 'pending', attempt_count: 0 });
    const single = await h.outbox.get(notificationIdFor(batch[0].endToEndId));
    expect(single).toMatchObject({ status: 'pending', pix: batch[0].pix });
  });

  it('stores each body byte for byte, whatever the Pix carries (quotes, backslashes, line separators, emoji, lone surrogates)', async () => {
    const texts = ['aspas "duplas" e \\ barra', 'linha\u2028separada\u2029', 'pago 😀 ç ã', 'meio \ud800 surrogate', '\t\n\r', '{"pix":[]}'];
    const batch = texts.map(() => cashIn('key-bytes'));
    batch.forEach((b, k) => (b.pix = { ...b.pix, infoPagador: texts[k] }));
    await h.outbox.enqueueMany(batch);
    const { rows } = await h.pool.query<{ end_to_end_id: string; body: string }>(`SELECT end_to_end_id, body FROM webhook_outbox WHERE chave = 'key-bytes'`);
    const stored = new Map(rows.map((r) => [r.end_to_end_id, r.body]));
    for (const b of batch) expect(stored.get(b.endToEndId)).toBe(JSON.stringify({ pix: [b.pix] }));
  });

  it('skips endToEndIds already stored and repeats inside the batch (a redelivered batch changes nothing)', async () => {
    const first = cashIn('key-again');
    expect(await h.outbox.enqueue(first)).toMatchObject({ created: true });
    const second = cashIn('key-again');
    expect(await h.outbox.enqueueMany([first, second, second, { ...first, pix: { other: true } }])).toEqual({ created: 1 });
    expect(await h.outbox.enqueueMany([first, second])).toEqual({ created: 0 });
    const { rows } = await h.pool.query(`SELECT end_to_end_id, body FROM webhook_outbox WHERE chave = 'key-again' ORDER BY end_to_end_id`);
    expect(rows).toEqual([first, second].map((c) => ({ end_to_end_id: c.endToEndId, body: JSON.stringify({ pix: [c.pix] }) })).sort((a, b) => a.end_to_end_id.localeCompare(b.end_to_end_id)));
    expect(await h.outbox.enqueueMany([])).toEqual({ created: 0 });
    await expect(h.outbox.enqueueMany([{ ...second, txid: '' }])).rejects.toThrow(/txid must be a non-empty string/);
  });
});
