import type { Pool } from 'pg';
import type { PixRecebidoMessage } from '@pix/contracts';
import type { PostgresEventStore } from '@pix/event-store';
import { Projections } from '../infrastructure/projections';
import type { ReceiverDirectory } from '../shared/ports';
import { SettleCashIn } from './settle-cash-in';
import { settlementStore } from './settlement-store.fixture';

/** A new Pix naming a charge of its receiver that it does not conclude is counted (an operator audit found it silent). */
describe('SettleCashIn: a Pix that settles nothing is counted', () => {
  let fixture: Awaited<ReturnType<typeof settlementStore>>;
  let pool: Pool;
  let store: PostgresEventStore;
  const pix: PixRecebidoMessage = { versao: 1, endToEndId: 'E12345678202611281200abcdefghijk', txid: 'semcobrancaaqui0000000000001', chave: 'k@example.com', valor: '10.00', horario: '2026-11-28T12:00:00.000Z' };

  beforeAll(async () => {
    fixture = await settlementStore('settle_unsettled');
    ({ pool, store } = fixture);
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('counts a txid with no charge once, not again on a redelivery', async () => {
    const directory: ReceiverDirectory = { recebedor: async () => undefined, ownerOfChave: async () => 'loja1' };
    const settle = new SettleCashIn(store, new Projections(store, pool), { now: () => new Date('2026-11-28T12:00:01.000Z') }, directory);
    const counted: string[] = [];
    settle.unsettled.observe = (reason) => void counted.push(reason);
    await settle.handle(pix);
    await settle.handle(pix);
    expect(counted).toEqual(['no_charge']);
    settle.onModuleDestroy();
  });
});
