import type { CobVState, PixRecebido } from '@pix/domain';
import { UnsettledCashIns } from './unsettled-cash-ins';

const pix: PixRecebido = { endToEndId: 'E12345678202611281200abcdefghijk', txid: 'tx1', chave: 'k', valor: '10.00', horario: '2026-11-28T12:00:00.000Z' };
const charge = (status: string, paidBy?: string) => ({ exists: true, status, ...(paidBy ? { pix: [{ ...pix, endToEndId: paidBy }] } : {}) }) as unknown as CobVState;

describe('new Pix that settle nothing', () => {
  it('counts each by reason; a second payment or one after removal at warn, a txid unknown here at debug', () => {
    const warn: string[] = [];
    const debug: string[] = [];
    const counted: string[] = [];
    const unsettled = new UnsettledCashIns({ warn: (m) => void warn.push(m), debug: (m) => void debug.push(m) });
    unsettled.observe = (reason) => void counted.push(reason);
    unsettled.record('loja1', pix, charge('CONCLUIDA', 'E00000000000000000000000000first'));
    unsettled.record('loja1', pix, charge('REMOVIDA_PELO_USUARIO_RECEBEDOR'));
    unsettled.record('loja1', pix, { exists: false });
    expect(counted).toEqual(['charge_concluded', 'charge_removed', 'no_charge']);
    expect(warn).toEqual([
      'Pix E12345678202611281200abcdefghijk (10.00) for cobv loja1/tx1 settled nothing: the charge was already CONCLUIDA (by Pix E00000000000000000000000000first); recorded (GET /pix shows it), nothing concluded: the receiver may owe the payer a refund (devolução)',
      'Pix E12345678202611281200abcdefghijk (10.00) for cobv loja1/tx1 settled nothing: the charge was REMOVIDA_PELO_USUARIO_RECEBEDOR before this Pix was paid; recorded (GET /pix shows it), nothing concluded: the receiver may owe the payer a refund (devolução)',
    ]);
    expect(debug).toEqual(['Pix E12345678202611281200abcdefghijk (10.00) for cobv loja1/tx1 settled nothing: no such charge here']);
  });
});
