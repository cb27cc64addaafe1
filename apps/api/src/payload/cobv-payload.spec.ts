import { ProblemError } from '@pix/contracts';
import type { CobVRow } from '@pix/read-models';
import { cobvPayload, readPayloadQuery } from './cobv-payload';

/** A charge as a version without the wire-limit rule stored it: 9999999999.99 with fines, or with 1% a day off. */
const row = (valor: CobVRow['cobranca']['valor'], dataDeVencimento = '2027-01-04'): CobVRow =>
  ({
    exists: true,
    txid: 'wirelimits00000000000000000001',
    criacao: '2026-11-26T12:00:00.000Z',
    revisao: 0,
    status: 'ATIVA',
    recebedor: { id: 'local', nome: 'Empresa SA', cnpj: '56989000019533', logradouro: 'Rua 15', cidade: 'São Paulo', uf: 'SP', cep: '70800100' },
    cobranca: { calendario: { dataDeVencimento, validadeAposVencimento: 30 }, devedor: { cpf: '12345678909', nome: 'Ana' }, valor, chave: 'k' },
  }) as CobVRow;
const now = new Date('2026-11-26T12:00:00.000Z');

const problemOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof ProblemError ? [error.tipo, error.violacoes.map((v) => v.propriedade)] : error;
  }
  return 'no error';
};

describe('cobvPayload: dates a stored charge cannot be paid on', () => {
  it('refuses such a date with CobPayloadOperacaoInvalida on DPP (it answered 500), and still answers the dates that fit', () => {
    const fined = row({ original: 999_999_999_999, multa: { modalidade: 2, valorPerc: 200 } });
    expect(problemOf(() => cobvPayload(fined, { dpp: '2027-01-05', now }))).toEqual(['CobPayloadOperacaoInvalida', ['DPP']]);
    expect((cobvPayload(fined, { dpp: '2027-01-04', now }).valor as { final: string }).final).toBe('9999999999.99');

    const discounted = row({ original: 999_999_999_999, desconto: { modalidade: 5, valorPerc: 100 } }, '2027-07-01'); // 217 days early: 217% off
    expect(problemOf(() => cobvPayload(discounted, { dpp: '2026-11-26', now }))).toEqual(['CobPayloadOperacaoInvalida', ['DPP']]);

    // 2% a day off 100.00: 0.00 to pay until 50 days before the due date, then something.
    const free = row({ original: 10_000, desconto: { modalidade: 5, valorPerc: 200 } }, '2027-07-01');
    expect(problemOf(() => cobvPayload(free, { dpp: '2026-11-26', now }))).toEqual(['CobPayloadOperacaoInvalida', ['DPP']]);
    expect((cobvPayload(free, { dpp: '2027-06-21', now }).valor as { final: string }).final).toBe('80.00');
  });
});

describe('the payer bank’s query: codMun and DPP', () => {
  it('refuses a codMun that is no IBGE municipality (its first two digits are no state), with the contract’s violation', () => {
    for (const codMun of ['0000000', '9999999', '0000001']) expect(problemOf(() => readPayloadQuery({ codMun }, now))).toEqual(['CobPayloadOperacaoInvalida', ['codMun']]);
    expect(readPayloadQuery({ codMun: '3509502' }, now)).toEqual({ dpp: '2026-11-26', dppGiven: false, codMun: '3509502' });
  });

  it('takes "today" where the payer is: a bank in Acre or Amazonas keeps its date after midnight in Brasília', () => {
    const late = new Date('2026-11-28T03:30:00.000Z'); // 00:30 on 11-28 in Brasília, 22:30 on 11-27 in Rio Branco
    const dppOf = (query: Record<string, string>) => {
      try {
        return readPayloadQuery(query, late).dpp;
      } catch (error) {
        return error instanceof ProblemError ? error.tipo : error;
      }
    };
    expect(dppOf({ DPP: '2026-11-27', codMun: '1200401' })).toBe('2026-11-27'); // Rio Branco
    expect(dppOf({ DPP: '2026-11-27', codMun: '1302603' })).toBe('2026-11-27'); // Manaus
    expect(dppOf({ codMun: '1200401' })).toBe('2026-11-27'); // no DPP: the payer's own today
    expect(dppOf({ DPP: '2026-11-27', codMun: '3550308' })).toBe('CobPayloadOperacaoInvalida'); // São Paulo: yesterday
    expect(dppOf({ codMun: '3550308' })).toBe('2026-11-28');
    // No codMun: today is Brasília's, and only a date past everywhere in Brazil is refused.
    expect([dppOf({}), dppOf({ DPP: '2026-11-27' }), dppOf({ DPP: '2026-11-26' })]).toEqual(['2026-11-28', '2026-11-27', 'CobPayloadOperacaoInvalida']);
  });

  it('prices a payer anywhere in São Paulo state with its state holiday: due on 07-09, paid the next business day, no fine', () => {
    const fined = row({ original: 10_000, multa: { modalidade: 2, valorPerc: 200 }, juros: { modalidade: 2, valorPerc: 10 } }, '2027-07-09');
    const final = (codMun?: string) => (cobvPayload(fined, { dpp: '2027-07-12', now, ...(codMun ? { codMun } : {}) }).valor as { final: string }).final;
    expect([final('3550308'), final('3509502'), final('3518800')]).toEqual(['100.00', '100.00', '100.00']);
    expect(final()).toBe('102.30'); // nationally 07-09 is a business day: 2% fine, 0.10% a day for 3 days
  });

  it('answers an expired charge asked without DPP as not found (the contract’s liberty), and a DPP past validity as invalid', () => {
    const expired = row({ original: 10_000 }, '2026-10-01'); // 30 days of validity: last payable 2026-10-31
    expect(problemOf(() => cobvPayload(expired, { dpp: '2026-11-26', dppGiven: false, now }))).toEqual(['CobPayloadNaoEncontrado', []]);
    expect(problemOf(() => cobvPayload(expired, { dpp: '2026-11-26', dppGiven: true, now }))).toEqual(['CobPayloadOperacaoInvalida', ['DPP']]);
  });
});
