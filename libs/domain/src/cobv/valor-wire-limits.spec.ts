import { cobvDecider, type CobVCommand, type CobVInput, type Recebedor } from '..';
import { deciderSpec } from '../testing/decider-spec';
import { wireOverflow } from './valor-wire-limits';

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

describe('cobv valor: every amount due must fit the wire form (9999999999.99)', () => {
  it.each([
    ['a 1% a day discount over a year early on the largest original', { original: MAX, desconto: { modalidade: 5, valorPerc: '1.00' } }],
    ['a 2% fine on the largest original', { original: MAX, multa: { modalidade: 2, valorPerc: '2.00' } }],
    ['a fixed fine on the largest original', { original: MAX, multa: { modalidade: 1, valorPerc: '0.01' } }],
    ['interest of 1% a day for the 30 days of validity', { original: '9000000000.00', juros: { modalidade: 2, valorPerc: '1.00' } }],
    ['a per-day value discount the days early multiply past the limit', { original: '9000000000.00', desconto: { modalidade: 3, valorPerc: '1000000000.00' } }],
  ] as [string, CobVInput['valor']][])('refuses %s', (_label, valor) => {
    spec.given([]).when(put(body(valor))).thenThrows('CobVOperacaoInvalida', ['cobv.valor']);
  });

  it('accepts the largest original alone, with a discount, and with fines that stay under the limit', () => {
    for (const valor of [
      { original: MAX },
      { original: MAX, desconto: { modalidade: 2, descontoDataFixa: [{ data: '2027-12-01', valorPerc: '50.00' }] } },
      { original: '9000000000.00', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 3, valorPerc: '1.00' } },
    ])
      spec.given([]).when(put(body(valor))).then((events) => expect(events).toHaveLength(1));
  });

  it('checks from the first day the charge can be paid: a revision from the day it is made', () => {
    // 1% a day early on 9,000,000,000.00: 400 days early (from 2026-11-26 to the due date) is 400%;
    // from 2027-12-20 it is 11%.
    const calendario = { dataDeVencimento: '2027-12-31', validadeAposVencimento: 30 };
    const valor = { original: 900_000_000_000, desconto: { modalidade: 5, valorPerc: 100 } };
    expect(wireOverflow(calendario, valor, '2026-11-26')).toHaveLength(1);
    expect(wireOverflow(calendario, valor, '2027-12-20')).toEqual([]);
  });
});
