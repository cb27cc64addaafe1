import { cobvDecider, type CobVCommand, type CobVInput, type Recebedor } from '..';
import { deciderSpec } from '../testing/decider-spec';
import fc from 'fast-check';
import { amountDue } from '../shared';
import { unpayableValor } from './payable-valor';

const spec = deciderSpec(cobvDecider);
const txid = 'wirelimits00000000000000000001';
const now = new Date('2026-11-26T15:00:00.000Z');
const chave = '5f84a4c5-c5cb-4599-9f13-7eb4d419dacc';
const recebedor: Recebedor = { id: 'local', nome: 'Empresa SA', cnpj: '56989000019533', logradouro: 'Rua 15', cidade: 'São Paulo', uf: 'SP', cep: '70800100', chaves: [chave] };
const body = (valor: CobVInput['valor'], dataDeVencimento = '2027-12-31', validadeAposVencimento = 30): CobVInput => ({
  calendario: { dataDeVencimento, validadeAposVencimento },
  devedor: { cpf: '12345678909', nome: 'Ana' },
  valor,
  chave,
});
const put = (input: CobVInput, at = now): CobVCommand => ({ type: 'CriarOuAlterarCobV', txid, input, now: at, recebedor, novaLocation: { id: 7, location: 'pix.example/qr/v2/cobv/x' } });
const MAX = '9999999999.99';

describe('cobv valor: payable on every date (amounts in the wire form, 9999999999.99 at most; a final above zero)', () => {
  it.each([
    ['a 1% a day discount over a year early on the largest original', { original: MAX, desconto: { modalidade: 5, valorPerc: '1.00' } }],
    ['a 2% fine on the largest original', { original: MAX, multa: { modalidade: 2, valorPerc: '2.00' } }],
    ['a fixed fine on the largest original', { original: MAX, multa: { modalidade: 1, valorPerc: '0.01' } }],
    ['interest of 1% a day for the 30 days of validity', { original: '9000000000.00', juros: { modalidade: 2, valorPerc: '1.00' } }],
    ['a per-day value discount the days early multiply past the limit', { original: '9000000000.00', desconto: { modalidade: 3, valorPerc: '1000000000.00' } }],
  ] as [string, CobVInput['valor']][])('refuses %s', (_label, valor) => {
    spec.given([]).when(put(body(valor))).thenThrows('CobVOperacaoInvalida', ['cobv.valor']);
  });

  it("checks every payer's calendar: a São Paulo holiday on the due date adds a day of anticipation there", () => {
    // Due Mon 2027-01-25 (São Paulo's anniversary), 1.00 off per calendar day early on 61.00: paid
    // today nationally 60.00 off, but for a payer in São Paulo the due date is Tue 26: 61.00 off.
    const valor = { original: '61.00', desconto: { modalidade: 3, valorPerc: '1.00' } };
    spec.given([]).when(put(body(valor, '2027-01-25', 0))).thenThrows('CobVOperacaoInvalida', ['cobv.valor.desconto']);
    expect(unpayableValor({ dataDeVencimento: '2027-01-25', validadeAposVencimento: 0 }, { original: 6100, desconto: { modalidade: 3, valorPerc: 100 } } as never, '2026-11-26')).toEqual([
      expect.objectContaining({ propriedade: 'cobv.valor.desconto', razao: expect.stringContaining('valor final zero em 2026-11-26') }),
    ]);
    spec.given([]).when(put(body({ original: '62.00', desconto: { modalidade: 3, valorPerc: '1.00' } }, '2027-01-25', 0))).then((e) => expect(e).toHaveLength(1));
  });

  it("checks from the earliest date a payer anywhere can ask for: at 00:30 in Brasília, Acre still lives the day before", () => {
    // Sat 2026-11-28 00:30 in Brasília is Fri 27 22:30 in Rio Branco, and the location serves DPP
    // 2026-11-27 there (payerDates). Due Fri 12-04, 1.00 off per day early on 7.00: 6.00 off on
    // the 28th, 7.00 (nothing to pay) on the 27th.
    const at = new Date('2026-11-28T03:30:00.000Z');
    const valor = { original: '7.00', desconto: { modalidade: 3, valorPerc: '1.00' } };
    expect(amountDue({ valor: { original: 700, desconto: { modalidade: 3, valorPerc: 100 } }, dataDeVencimento: '2026-12-04', validadeAposVencimento: 0, paymentDate: '2026-11-27' })?.final).toBe(0);
    spec.given([]).when(put(body(valor, '2026-12-04', 0), at)).thenThrows('CobVOperacaoInvalida', ['cobv.valor.desconto']);
    // A fixed-date tier dated the 27th: still current for that payer.
    const tier = { original: '7.00', abatimento: { modalidade: 1, valorPerc: '2.00' }, desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-11-27', valorPerc: '5.00' }] } };
    spec.given([]).when(put(body(tier, '2026-12-04', 0), at)).thenThrows('CobVOperacaoInvalida', ['cobv.valor.desconto']);
    spec.given([]).when(put(body({ original: '8.00', desconto: { modalidade: 3, valorPerc: '1.00' } }, '2026-12-04', 0), at)).then((e) => expect(e).toHaveLength(1));
  });

  it('checks a charge that never expires up to 9999-12-31, the last date its location serves', () => {
    // 34.34 a day from 2026-12-01 passes the limit during year 9999 only (an audit found 9998-12-31 was the last date checked).
    const valor = { original: '100.00', juros: { modalidade: 1, valorPerc: '3434.36' } };
    spec.given([]).when(put(body(valor, '2026-12-01', 2147483647))).thenThrows('CobVOperacaoInvalida', ['cobv.valor']);
    spec.given([]).when(put(body({ ...valor, juros: { modalidade: 1, valorPerc: '3400.00' } }, '2026-12-01', 2147483647))).then((e) => expect(e[0].type).toBe('CobVCriada'));
  });

  it('accepts the largest original alone, with a discount, and with fines that stay under the limit', () => {
    for (const valor of [
      { original: MAX },
      { original: MAX, desconto: { modalidade: 2, descontoDataFixa: [{ data: '2027-12-01', valorPerc: '50.00' }] } },
      { original: '9000000000.00', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 3, valorPerc: '1.00' } },
    ])
      spec.given([]).when(put(body(valor))).then((events) => expect(events).toHaveLength(1));
  });

  it.each([
    ['2% a day off, 400 days before the due date: 800% off today', { original: '100.00', desconto: { modalidade: 5, valorPerc: '2.00' } }],
    ['a fixed 9.00 rebate and a fixed-date 5.00 discount on 10.00', { original: '10.00', abatimento: { modalidade: 1, valorPerc: '9.00' }, desconto: { modalidade: 1, descontoDataFixa: [{ data: '2027-12-01', valorPerc: '5.00' }] } }],
    ['1.00 a day off on 100.00, 400 days early', { original: '100.00', desconto: { modalidade: 3, valorPerc: '1.00' } }],
  ] as [string, CobVInput['valor']][])('refuses a charge that comes to 0.00 on some date: %s', (_label, valor) => {
    spec.given([]).when(put(body(valor))).thenThrows('CobVOperacaoInvalida', ['cobv.valor.desconto']);
  });

  it('accepts discounts that leave something to pay on every date', () => {
    for (const valor of [
      { original: '100.00', desconto: { modalidade: 5, valorPerc: '0.10' } },
      { original: '10.00', abatimento: { modalidade: 1, valorPerc: '4.00' }, desconto: { modalidade: 1, descontoDataFixa: [{ data: '2027-12-01', valorPerc: '5.00' }] } },
    ])
      spec.given([]).when(put(body(valor))).then((events) => expect(events).toHaveLength(1));
  });

  it('checks from the first day the charge can be paid: a revision from the day it is made', () => {
    // 1% a day early on 9,000,000,000.00: 400 days early (from 2026-11-26 to the due date) is 400%,
    // from 2027-12-20 it is 11%.
    const calendario = { dataDeVencimento: '2027-12-31', validadeAposVencimento: 30 };
    const valor = { original: 900_000_000_000, desconto: { modalidade: 5, valorPerc: 100 } };
    // 400% off: past the wire form's limit, and nothing left to pay.
    expect(unpayableValor(calendario, valor, '2026-11-26').map((v) => v.propriedade)).toEqual(['cobv.valor', 'cobv.valor.desconto']);
    expect(unpayableValor(calendario, valor, '2027-12-20')).toEqual([]);
  });
  // An audit's cases: each component is rounded half-up to the cent, so near 100% off on small
  // amounts the rounded rebate or discount takes the whole original.
  it.each([
    ['a 99.99% rebate on 10.00 (999.9 cents, rounded 1000)', { original: '10.00', abatimento: { modalidade: 2, valorPerc: '99.99' } }, 'cobv.valor.abatimento'],
    ['a 99.95% rebate on 10.00', { original: '10.00', abatimento: { modalidade: 2, valorPerc: '99.95' } }, 'cobv.valor.abatimento'],
    ['a 50% rebate on 0.01', { original: '0.01', abatimento: { modalidade: 2, valorPerc: '50.00' } }, 'cobv.valor.abatimento'],
    ['a 50% fixed-date discount on 0.01', { original: '0.01', desconto: { modalidade: 2, descontoDataFixa: [{ data: '2027-12-30', valorPerc: '50.00' }] } }, 'cobv.valor.desconto'],
    ['a 99% fixed-date discount on 0.03', { original: '0.03', desconto: { modalidade: 2, descontoDataFixa: [{ data: '2027-12-30', valorPerc: '99.00' }] } }, 'cobv.valor.desconto'],
  ] as [string, CobVInput['valor'], string][])('refuses what rounding brings to 0.00: %s', (_label, valor, member) => {
    spec.given([]).when(put(body(valor))).thenThrows('CobVOperacaoInvalida', [member]);
  });

  it('accepts what rounding leaves a cent of: a 99.94% rebate on 10.00, a 49.99% rebate on 0.01', () => {
    for (const valor of [
      { original: '10.00', abatimento: { modalidade: 2, valorPerc: '99.94' } },
      { original: '0.01', abatimento: { modalidade: 2, valorPerc: '49.99' } },
    ])
      spec.given([]).when(put(body(valor))).then((events) => expect(events).toHaveLength(1));
  });

  it('never passes a charge whose final is zero on a date it can be paid (small amounts, rates near 100%)', () => {
    const calendario = { dataDeVencimento: '2027-01-29', validadeAposVencimento: 3 };
    const today = '2026-11-26';
    const dates = ['2026-11-26', '2027-01-15', '2027-01-28', '2027-01-29'];
    const percent = fc.oneof(fc.integer({ min: 9_900, max: 10_000 }), fc.integer({ min: 1, max: 10_000 }));
    const valor = fc.record({
      original: fc.integer({ min: 1, max: 5_000 }),
      abatimento: fc.option(fc.record({ modalidade: fc.constant(2 as const), valorPerc: percent }), { nil: undefined }),
      desconto: fc.option(fc.record({ modalidade: fc.constant(2 as const), descontoDataFixa: fc.constant([{ data: '2027-01-15' }]).chain((d) => percent.map((valorPerc) => [{ ...d[0], valorPerc }])) }), { nil: undefined }),
    });
    // fast-check prints the seed and the path of a failure (replay with { seed, path }).
    fc.assert(
      fc.property(valor, (v) => {
        if (unpayableValor(calendario, v as never, today).length > 0) return;
        for (const paymentDate of dates) {
          const due = amountDue({ valor: v as never, ...calendario, paymentDate });
          expect(due === null || due.final > 0).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
