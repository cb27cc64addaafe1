import { recebedorDecider, type DadosRecebedor, type RecebedorCommand, type RecebedorEvent } from '..';
import { deciderSpec } from '../testing/decider-spec';

const spec = deciderSpec(recebedorDecider);
const now = new Date('2026-11-22T12:00:00.000Z');
const em = now.toISOString();
const dados: DadosRecebedor = { nome: 'Loja Um SA', cnpj: '56989000019563', logradouro: 'Rua 15, 1200', cidade: 'São Paulo', uf: 'SP', cep: '01001000' };
const cadastrar = (over: Partial<DadosRecebedor> = {}, recebedorId = 'loja1'): RecebedorCommand => ({ type: 'CadastrarRecebedor', recebedorId, dados: { ...dados, ...over }, now });
const cadastrado: RecebedorEvent[] = [{ type: 'RecebedorCadastrado', data: { recebedorId: 'loja1', ...dados, em } }];
const EVP = '5f84a4c5-c5cb-4599-9f13-7eb4d419dacc';
const vincular = (chave: string): RecebedorCommand => ({ type: 'VincularChave', recebedorId: 'loja1', chave, now });
const desvincular = (chave: string): RecebedorCommand => ({ type: 'DesvincularChave', recebedorId: 'loja1', chave, now });

describe('receiver decider', () => {
  it('registers a receiver with a CNPJ, an alphanumeric CNPJ or a CPF, and a retry with the same data changes nothing', () => {
    spec.given([]).when(cadastrar()).then(cadastrado);
    spec.given([]).when(cadastrar({ cnpj: '12ABC34501DE35', nomeFantasia: 'Loja' })).then((e) => expect(e[0].data).toMatchObject({ cnpj: '12ABC34501DE35', nomeFantasia: 'Loja' }));
    spec.given([]).when(cadastrar({ cnpj: undefined, cpf: '12345678909' })).then((e) => expect(e[0].data).toMatchObject({ cpf: '12345678909' }));
    spec.given(cadastrado).when(cadastrar()).then([]);
  });

  it('refuses a second registration with other data', () => {
    spec.given(cadastrado).when(cadastrar({ nome: 'Outra' })).thenThrows('RecebedorJaCadastrado');
  });

  it.each<[string, Partial<DadosRecebedor>, string, string]>([
    ['a CNPJ with wrong check digits', { cnpj: '56989000019564' }, 'cnpj', 'loja1'],
    ['a CPF with wrong check digits', { cnpj: undefined, cpf: '12345678900' }, 'cpf', 'loja1'],
    ['both CPF and CNPJ', { cpf: '12345678909' }, 'cpf', 'loja1'],
    ['neither CPF nor CNPJ', { cnpj: undefined }, 'cnpj', 'loja1'],
    ['a lowercase UF', { uf: 'sp' }, 'uf', 'loja1'],
    ['a CEP of 7 digits', { cep: '0100100' }, 'cep', 'loja1'],
    ['an empty name', { nome: '' }, 'nome', 'loja1'],
    ['a street of 201 characters', { logradouro: 'x'.repeat(201) }, 'logradouro', 'loja1'],
    ['an id with capitals', {}, 'id', 'Loja1'],
    ['a name with no Latin letters or digits (the BR Code would carry nothing)', { nome: '株式会社東京' }, 'nome', 'loja1'],
    ['a city with no Latin letters or digits', { cidade: '東京' }, 'cidade', 'loja1'],
    ['a line break in the name', { nome: 'Loja\nUm' }, 'nome', 'loja1'],
    ['an escape character in the street', { logradouro: 'Rua \u001b[31m1' }, 'logradouro', 'loja1'],
    ['a right-to-left override in the trade name', { nomeFantasia: 'Loja \u202egpj' }, 'nomeFantasia', 'loja1'],
    ['a zero-width space in the city', { cidade: 'São\u200bPaulo' }, 'cidade', 'loja1'],
  ])('refuses %s with RecebedorInvalido', (_name, over, property, id) => {
    spec.given([]).when(cadastrar(over, id)).thenThrows('RecebedorInvalido', [property]);
  });

  it('updates the data of a registered receiver (and not of an unknown one)', () => {
    const update: RecebedorCommand = { type: 'AtualizarRecebedor', recebedorId: 'loja1', dados: { ...dados, cidade: 'Campinas' }, now };
    spec.given(cadastrado).when(update).then([{ type: 'RecebedorAtualizado', data: { recebedorId: 'loja1', ...dados, cidade: 'Campinas', em } }]);
    spec.given(cadastrado).when({ ...update, dados }).then([]);
    spec.given([]).when(update).thenThrows('RecebedorNaoEncontrado');
  });

  it('links and unlinks keys, both idempotent, and keeps keys across an update', () => {
    const linked = spec.given(cadastrado).when(vincular(EVP)).then([{ type: 'ChaveVinculada', data: { recebedorId: 'loja1', chave: EVP, em } }]);
    spec.given([...cadastrado, ...linked]).when(vincular(EVP)).then([]);
    spec.given([...cadastrado, ...linked]).when(desvincular(EVP)).then([{ type: 'ChaveDesvinculada', data: { recebedorId: 'loja1', chave: EVP, em } }]);
    spec.given(cadastrado).when(desvincular(EVP)).then([]);
    const updated: RecebedorEvent = { type: 'RecebedorAtualizado', data: { recebedorId: 'loja1', ...dados, nome: 'Novo', em } };
    const state = [...cadastrado, ...linked, updated].reduce(recebedorDecider.evolve, recebedorDecider.initialState);
    expect(state).toMatchObject({ exists: true, chaves: [EVP], dados: { nome: 'Novo' } });
  });

  it('refuses a key that is no Pix key, and keys of an unknown receiver', () => {
    spec.given(cadastrado).when(vincular('Loja@Example.com')).thenThrows('ChaveInvalida', ['chave']);
    spec.given([]).when(vincular(EVP)).thenThrows('RecebedorNaoEncontrado');
  });
});
