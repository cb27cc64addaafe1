import { cobvDecider, decideSolicitacaoLote, type CobVState, type Recebedor, type SolicitacaoEmProcessamento } from '..';

const recebedor: Recebedor = { id: 'local', nome: 'Loja', cnpj: '11222333000181', logradouro: 'Rua A', cidade: 'Recife', uf: 'PE', cep: '50000000', chaves: ['+5581999990000'] };
const now = new Date('2026-11-22T12:00:00.000Z');
const input = (original = '10.00') => ({ calendario: { dataDeVencimento: '2026-12-01' }, devedor: { cpf: '12345678909', nome: 'Ana' }, valor: { original }, chave: '+5581999990000' });
const request = (over: Partial<SolicitacaoEmProcessamento> = {}): SolicitacaoEmProcessamento => ({
  loteCobVId: '7',
  txid: 'loteitem000000000000000000001',
  via: 'CRIACAO',
  entrada: { input: input() },
  now,
  recebedor,
  novaLocation: { id: 1, location: 'https://h/qr/v2/cobv/1' },
  ...over,
});
const fold = (events: any[]): CobVState => events.reduce(cobvDecider.evolve, cobvDecider.initialState);

describe('deciding one request of a batch', () => {
  it('creates the charge, tagged with its batch', () => {
    const d = decideSolicitacaoLote(request(), cobvDecider.initialState);
    expect(d).toMatchObject({ status: 'CRIADA', eventos: [{ type: 'CobVCriada', data: { loteCobVId: 7 } }] });
  });

  it('denies with the same violations PUT /cobv gives, and no charge', () => {
    const d = decideSolicitacaoLote(request({ entrada: { input: input('0.00') } }), cobvDecider.initialState);
    expect(d).toMatchObject({ status: 'NEGADA', eventos: [], problema: { tipo: 'CobVOperacaoInvalida', violacoes: [{ propriedade: 'cobv.valor.original' }] } });
  });

  it('never takes over a charge that is not of this batch', () => {
    const other = fold(cobvDecider.decide({ type: 'CriarOuAlterarCobV', txid: 'x', input: input(), now, recebedor, novaLocation: { id: 2, location: 'https://h/2' } }, cobvDecider.initialState));
    expect(decideSolicitacaoLote(request(), other)).toMatchObject({ status: 'NEGADA', problema: { violacoes: [{ propriedade: 'txid' }] } });
  });

  it('alters its own charge, and keeps it CRIADA with the problem when the alteration is invalid', () => {
    const own = fold(decideSolicitacaoLote(request(), cobvDecider.initialState).eventos);
    expect(decideSolicitacaoLote(request({ via: 'ALTERACAO_PUT', entrada: { input: input('20.00') } }), own)).toMatchObject({ status: 'CRIADA', eventos: [{ type: 'CobVRevisada' }] });
    expect(decideSolicitacaoLote(request({ via: 'ALTERACAO_PUT', entrada: { input: input('0.00') } }), own)).toMatchObject({ status: 'CRIADA', eventos: [], problema: { tipo: 'CobVOperacaoInvalida' } });
  });

  it('denies the requests of a receiver no longer registered, and keeps its already created charge CRIADA', () => {
    expect(decideSolicitacaoLote(request({ recebedor: undefined }), cobvDecider.initialState)).toMatchObject({ status: 'NEGADA', eventos: [], problema: { tipo: 'CobVOperacaoInvalida' } });
    const own = fold(decideSolicitacaoLote(request(), cobvDecider.initialState).eventos);
    expect(decideSolicitacaoLote(request({ via: 'ALTERACAO_PUT', recebedor: undefined }), own)).toMatchObject({ status: 'CRIADA', eventos: [], problema: { tipo: 'CobVOperacaoInvalida' } });
  });

  it('tries a denied request again as a creation, and cannot PATCH a charge that was never created', () => {
    expect(decideSolicitacaoLote(request({ via: 'ALTERACAO_PUT' }), cobvDecider.initialState)).toMatchObject({ status: 'CRIADA', eventos: [{ type: 'CobVCriada' }] });
    expect(decideSolicitacaoLote(request({ via: 'REVISAO_PATCH' }), cobvDecider.initialState)).toMatchObject({ status: 'NEGADA', problema: { tipo: 'CobVNaoEncontrada' } });
  });
});
