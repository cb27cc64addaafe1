import { Pool } from 'pg';
import type { PixRecebidoMessage } from '@pix/contracts';
import { chaveDecider } from '@pix/domain';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { NotificationOutbox } from '@pix/webhook-delivery';
import type { KeyHistory } from './key-history';
import { notifyCashIns } from './notifier-intake';

// One endToEndId published twice with other content (a PSP core's bug). Settlement keeps the
// first copy over every valid message and ignores the second (ADR 7); the notifier must judge
// "first" over the same messages, or it tells a receiver of a Pix settlement never recorded
// (audit 2, H1: no-txid copy first, then a copy with the charge's txid, notified).
describe('notifier intake: the first copy of an endToEndId wins, notified or not (real outbox)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let outbox: NotificationOutbox;
  let seq = 0;
  const registrations = { urlFor: async (chave: string) => (chave.startsWith('hook') ? `https://example.com/${chave}` : undefined) };
  const neverClaimed: KeyHistory = { of: async () => chaveDecider.initialState };
  const intake = (batch: PixRecebidoMessage[]) => notifyCashIns(batch, registrations, neverClaimed, outbox);
  /** Two copies of one fresh endToEndId: the first as given, the second with other content. */
  const copies = (first: { chave: string; txid?: string }, second: { chave: string; txid?: string }): [PixRecebidoMessage, PixRecebidoMessage] => {
    seq += 1;
    const endToEndId = `E12345678202611221015${String(seq).padStart(11, '0')}`;
    const base = { versao: 1 as const, endToEndId, horario: '2026-11-22T10:15:00.000Z' };
    return [
      { ...base, ...first, valor: '1.00' },
      { ...base, ...second, valor: '100.00' },
    ];
  };
  const stored = async (endToEndId: string) =>
    (await pool.query<{ body: string }>('SELECT body FROM webhook_outbox WHERE end_to_end_id = $1', [endToEndId])).rows.map((r) => JSON.parse(r.body).pix[0].valor);
  const T = 'txidcharge000000000000000001';

  beforeAll(async () => {
    db = await createTestDatabase('msg_first_copy');
    pool = new Pool({ connectionString: db.url, max: 4 });
    outbox = await NotificationOutbox.create(pool);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('a copy without txid, then one with a txid: nothing is notified, in one batch or in two', async () => {
    const same = copies({ chave: 'hook1' }, { chave: 'hook1', txid: T });
    expect(await intake(same)).toEqual({ created: 0 });
    expect(await stored(same[0].endToEndId)).toEqual([]);
    const apart = copies({ chave: 'hook1' }, { chave: 'hook1', txid: T });
    expect(await intake([apart[0]])).toEqual({ created: 0 });
    expect(await intake([apart[1]])).toEqual({ created: 0 });
    expect(await stored(apart[0].endToEndId)).toEqual([]);
  });

  it('a copy with a txid, then one without: the first is notified once, in one batch or in two', async () => {
    const same = copies({ chave: 'hook1', txid: T }, { chave: 'hook1' });
    expect(await intake(same)).toEqual({ created: 1 });
    expect(await stored(same[0].endToEndId)).toEqual(['1.00']);
    const apart = copies({ chave: 'hook1', txid: T }, { chave: 'hook1' });
    expect(await intake([apart[0]])).toEqual({ created: 1 });
    expect(await intake([apart[1]])).toEqual({ created: 0 });
    expect(await stored(apart[0].endToEndId)).toEqual(['1.00']);
  });

  it('a first copy to a key with no webhook, then one to a key with a webhook: nothing is notified', async () => {
    const moved = copies({ chave: 'nohook', txid: T }, { chave: 'hook2', txid: T });
    expect(await intake([moved[0]])).toEqual({ created: 0 });
    expect(await intake([moved[1]])).toEqual({ created: 0 });
    expect(await stored(moved[0].endToEndId)).toEqual([]);
  });

  it('redelivering the same messages (at least once) gives the same outcome', async () => {
    const notified = copies({ chave: 'hook1', txid: T }, { chave: 'hook1' });
    const skipped = copies({ chave: 'hook1' }, { chave: 'hook1', txid: T });
    const batch = [notified[0], skipped[0], notified[1], skipped[1]];
    expect(await intake(batch)).toEqual({ created: 1 });
    expect(await intake(batch)).toEqual({ created: 0 });
    expect(await intake([notified[0]])).toEqual({ created: 0 });
    expect(await stored(notified[0].endToEndId)).toEqual(['1.00']);
    expect(await stored(skipped[0].endToEndId)).toEqual([]);
    // A notified Pix redelivered after its webhook went away is not remembered as skipped: still one row.
    const gone = { urlFor: async () => undefined };
    expect(await notifyCashIns([notified[0]], gone, neverClaimed, outbox)).toEqual({ created: 0 });
    const remembered = await pool.query('SELECT 1 FROM webhook_intake_skipped WHERE end_to_end_id = $1', [notified[0].endToEndId]);
    expect(remembered.rowCount).toBe(0);
    expect(await stored(notified[0].endToEndId)).toEqual(['1.00']);
  });
});
