import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import type { PixRecebidoMessage } from '@pix/contracts';
import type { PostgresEventStore } from '@pix/event-store';
import { AccessDirectory } from '../access/access-directory';
import { Projections } from '../infrastructure/projections';
import { pixStream } from '../shared/streams';
import { SettleCashIn } from './settle-cash-in';
import { settlementStore } from './settlement-store.fixture';

/** One Pix per endToEndId (ADR 7): a copy with other content is told in the log and changes nothing. */
describe('SettleCashIn: the first copy of an endToEndId stands', () => {
  let fixture: Awaited<ReturnType<typeof settlementStore>>;
  let pool: Pool;
  let store: PostgresEventStore;
  const errors: string[] = [];
  const pix = (valor: string): PixRecebidoMessage => ({ versao: 1, endToEndId: 'E12345678202611271200abcdefghijk', chave: 'chave-de-ninguem', valor, horario: '2026-11-27T12:00:00.000Z' });

  beforeAll(async () => {
    fixture = await settlementStore('settle_first_copy');
    ({ pool, store } = fixture);
    jest.spyOn(Logger.prototype, 'error').mockImplementation((m: unknown) => void errors.push(String(m)));
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await fixture.close();
  });

  it('records a new Pix without a word, its redelivery likewise, and names a copy with another amount as ignored', async () => {
    // Nobody here owns the key: recorded without a receiver (shown to nobody), nothing to settle.
    const settle = new SettleCashIn(store, new Projections(store, pool), { now: () => new Date('2026-11-27T12:00:01.000Z') }, new AccessDirectory(store, 1000));
    await settle.handle(pix('10.00'));
    await settle.handle(pix('10.00'));
    expect(errors).toEqual([]);
    await settle.handle(pix('99.00'));
    expect(errors).toEqual([expect.stringContaining('arrived again with other content')]);
    expect(errors[0]).toContain('the first one recorded stands (txid -, valor 10.00)');
    expect((await store.readStream(pixStream(pix('10.00').endToEndId).id)).map((e) => e.type)).toEqual(['PixRecebido']);
    expect((await pool.query(`SELECT doc->'pix'->>'valor' AS valor FROM rm_pix`)).rows).toEqual([{ valor: '10.00' }]);
    settle.onModuleDestroy();
  });
});
