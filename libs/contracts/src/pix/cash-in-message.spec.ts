import { HORARIO_CLOCK_SKEW_MS, parsePixRecebidoMessage } from './cash-in-message';

const valid = { versao: 1, endToEndId: 'E12345678202611221500abcdefghijk', txid: 'abcdefghijklmnopqrstuvwxyz0', chave: '+5511999998888', valor: '10.00', horario: '2026-11-22T15:00:00.000Z' };

/** A publish time after every horario below but the future ones. */
const AT = new Date('2030-01-01T00:00:00.000Z');
const parse = (raw: string) => parsePixRecebidoMessage(raw, AT);

describe('cash-in message', () => {
  it('accepts a valid message with optional payer and components', () => {
    expect(parse(JSON.stringify({ ...valid, infoPagador: 'oi', pagador: { cpf: '12345678909', nome: 'Ana' }, componentesValor: { original: { valor: '10.00' } } })).value).toBeDefined();
  });
  it('counts infoPagador and the payer name in characters, as the contract does, not in UTF-16 units', () => {
    const emoji = (n: number) => '\u{1F600}'.repeat(n);
    expect(parse(JSON.stringify({ ...valid, infoPagador: emoji(140) })).value?.infoPagador).toBe(emoji(140));
    expect(parse(JSON.stringify({ ...valid, infoPagador: emoji(141) })).error).toMatch(/infoPagador/);
    expect(parse(JSON.stringify({ ...valid, pagador: { cpf: '12345678909', nome: emoji(200) } })).value).toBeDefined();
    expect(parse(JSON.stringify({ ...valid, pagador: { cpf: '12345678909', nome: emoji(201) } })).error).toMatch(/pagador/);
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
    // Storable or not: each of these passed once and then failed PostgreSQL at every retry,
    // holding back every partition of the consumer behind it.
    ['February 30', JSON.stringify({ ...valid, horario: '2026-02-30T10:00:00Z' })],
    ['year 0000', JSON.stringify({ ...valid, horario: '0000-01-01T00:00:00Z' })],
    ['an offset past 15:59', JSON.stringify({ ...valid, horario: '2026-11-22T10:00:00+16:00' })],
    ['hour 24', JSON.stringify({ ...valid, horario: '2026-11-22T24:00:00Z' })],
    ['a NUL in infoPagador', JSON.stringify({ ...valid, infoPagador: 'a\u0000b' })],
    ['a NUL in the payer name', JSON.stringify({ ...valid, pagador: { cpf: '12345678909', nome: 'A\u0000' } })],
    ['a NUL in the key', JSON.stringify({ ...valid, chave: 'x\u0000y' })],
    ['a lone surrogate in infoPagador', JSON.stringify({ ...valid, infoPagador: 'a\ud800b' })],
    ['a NUL inside a component', JSON.stringify({ ...valid, componentesValor: { juros: { valor: '1.00', modalidade: '\u0000' } } })],
    ['an unknown member in a component', JSON.stringify({ ...valid, componentesValor: { original: { valor: '10.00', nota: 'x' } } })],
    // Ambiguous: JSON.parse kept the last copy of a member sent twice.
    ['a member sent twice', JSON.stringify(valid).replace('"valor":"10.00"', '"valor":"10.00","valor":"100.00"')],
    ['a nested member sent twice', JSON.stringify({ ...valid, pagador: { cpf: '12345678909' } }).replace('"cpf":"12345678909"', '"cpf":"12345678909","cpf":"98765432100"')],
  ])('rejects %s with a reason', (_name, raw) => {
    const r = parse(raw as string);
    expect(r.value).toBeUndefined();
    expect(r.error).toEqual(expect.any(String));
  });

  it.each(['2026-11-22T10:00:00+15:59', '2026-12-31T23:59:60Z', '0001-01-01T00:00:00Z', '2028-02-29T12:00:00.123456789-03:00'])('accepts the timestamp %s, which PostgreSQL stores', (horario) => {
    expect(parse(JSON.stringify({ ...valid, horario })).error).toBeUndefined();
  });

  // The requirements serve horario "in UTC with milliseconds"; settlement and the notifier store
  // what the parser yields, so they must get one form whatever the PSP core sent.
  it.each([
    ['2026-11-27T10:00:00.5-03:00', '2026-11-27T13:00:00.500Z'],
    ['2026-11-26T23:59:59.5-03:00', '2026-11-27T02:59:59.500Z'],
    ['2026-11-22T10:00:00+15:59', '2026-11-21T18:01:00.000Z'],
    ['2026-11-22T15:00:00Z', '2026-11-22T15:00:00.000Z'],
    ['2028-02-29T12:00:00.123456789-03:00', '2028-02-29T15:00:00.123Z'],
    ['2026-11-22T15:00:00.000Z', '2026-11-22T15:00:00.000Z'],
  ])('yields horario %s as %s (UTC, milliseconds)', (horario, utc) => {
    expect(parse(JSON.stringify({ ...valid, horario })).value?.horario).toBe(utc);
  });

  it('keeps every other field as sent', () => {
    const sent = { ...valid, horario: '2026-11-22T12:00:00-03:00', infoPagador: 'oi', pagador: { cpf: '12345678909', nome: 'Ana' } };
    expect(parse(JSON.stringify(sent)).value).toEqual({ ...sent, horario: '2026-11-22T15:00:00.000Z' });
  });

  // ADR 9 gives a cash-in to the key's holder at horario: a horario after its own publication is
  // no settlement time (the SPI settled before the PSP core published) and would give the Pix to a
  // later holder of the key. The judge is the record's timestamp, the same for every consumer group.
  describe('horario against the publish time', () => {
    const published = new Date('2026-11-27T03:00:00.000Z');
    const at = (horario: string, when = published) => parsePixRecebidoMessage(JSON.stringify({ ...valid, horario }), when);

    it('states the clock-skew tolerance: 5 minutes', () => expect(HORARIO_CLOCK_SKEW_MS).toBe(300_000));
    it.each(['2026-11-27T02:59:59.999Z', '2026-11-27T03:00:00.000Z', '2026-11-27T03:05:00.000Z', '2026-11-27T00:05:00-03:00'])('accepts %s (up to 5 minutes after)', (horario) => {
      expect(at(horario).error).toBeUndefined();
    });
    it.each(['2026-11-27T03:05:00.001Z', '2099-01-01T00:00:00Z', '2026-11-27T00:05:01-03:00'])('refuses %s, with the reason', (horario) => {
      const r = at(horario);
      expect(r.value).toBeUndefined();
      expect(r.error).toMatch(/^horario .* is after the message was published \(2026-11-27T03:00:00.000Z\) by more than 5 minutes of clock skew$/);
    });
    it('refuses alike when there is no valid publish time to judge by', () => {
      expect(at('2026-11-27T03:00:00Z', new Date(Number.NaN)).error).toBe('the message has no valid publish timestamp to check horario against');
    });
  });
});
