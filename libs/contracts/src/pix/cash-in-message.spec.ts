import { parsePixRecebidoMessage } from './cash-in-message';

const valid = { versao: 1, endToEndId: 'E12345678202611221500abcdefghijk', txid: 'abcdefghijklmnopqrstuvwxyz0', chave: '+5511999998888', valor: '10.00', horario: '2026-11-22T15:00:00.000Z' };

describe('cash-in message', () => {
  it('accepts a valid message with optional payer and components', () => {
    expect(parsePixRecebidoMessage(JSON.stringify({ ...valid, infoPagador: 'oi', pagador: { cpf: '12345678909', nome: 'Ana' }, componentesValor: { original: { valor: '10.00' } } })).value).toBeDefined();
  });
  it.each<[string, unknown]>([
    ['not JSON', '{'],
    ['an array', '[]'],
    ['another version', JSON.stringify({ ...valid, versao: 2 })],
    ['a short endToEndId', JSON.stringify({ ...valid, endToEndId: 'E123' })],
    ['a zero amount', JSON.stringify({ ...valid, valor: '0.00' })],
    ['a bad timestamp', JSON.stringify({ ...valid, horario: 'yesterday' })],
    ['an unknown field', JSON.stringify({ ...valid, extra: 1 })],
    ['a bad payer', JSON.stringify({ ...valid, pagador: { cpf: '1' } })],
  ])('rejects %s with a reason', (_name, raw) => {
    const r = parsePixRecebidoMessage(raw as string);
    expect(r.value).toBeUndefined();
    expect(r.error).toEqual(expect.any(String));
  });
});
