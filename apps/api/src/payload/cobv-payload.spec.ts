import { ProblemError } from '@pix/contracts';
import type { CobVRow } from '@pix/read-models';
import { cobvPayload } from './cobv-payload';

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
