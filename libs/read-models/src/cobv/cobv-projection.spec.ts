import { cobvDecider, cobvStreamId, type CobVCommand, type Recebedor } from '@pix/domain';
import { projectionSpec, recorded } from '../testing/projection-spec';
import { cobvProjection } from './cobv-projection';

const recebedor: Recebedor = { id: 'local', nome: 'Loja', cnpj: '11222333000181', logradouro: 'Rua A', cidade: 'Recife', uf: 'PE', cep: '50000000', chaves: ['+5581999990000'] };
const txid = 'projectiontest0000000000000001';
const now = new Date('2026-11-22T12:00:00.000Z');
const put = (original: string, of: Recebedor = recebedor): CobVCommand => ({
  type: 'CriarOuAlterarCobV',
  txid,
  now,
  recebedor: of,
  novaLocation: { id: 1, location: 'https://h/qr/v2/cobv/1' },
  input: { calendario: { dataDeVencimento: '2026-12-01' }, devedor: { cpf: '12345678909', nome: 'Ana' }, valor: { original }, chave: '+5581999990000' },
});

describe('cobv projection', () => {
  it('folds creation, revision and removal into one row per receiver and txid', () => {
    const created = cobvDecider.decide(put('10.00'), cobvDecider.initialState);
    const state1 = created.reduce(cobvDecider.evolve, cobvDecider.initialState);
    const revised = cobvDecider.decide(put('20.00'), state1);
    const state2 = revised.reduce(cobvDecider.evolve, state1);
    const removed = cobvDecider.decide({ type: 'RevisarCobV', txid, input: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }, now, recebedor }, state2);
    const other = cobvDecider.decide(put('30.00', { ...recebedor, id: 'outra' }), cobvDecider.initialState);
    const spec = projectionSpec(cobvProjection).given([
      ...recorded([...created, ...revised, ...removed, { type: 'SomethingElse', data: { txid } }], cobvStreamId('local', txid)),
      ...recorded(other, cobvStreamId('outra', txid)),
      // A stream written before receivers had ids names no row.
      ...recorded(other, `cobv-${txid}`),
    ]);
    spec.then(`local/${txid}`, (row) => {
      expect(row).toMatchObject({ txid, revisao: 2, status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', cobranca: { valor: { original: 2000 } } });
    });
    spec.then(`outra/${txid}`, (row) => expect(row).toMatchObject({ txid, revisao: 0, recebedor: { id: 'outra' }, cobranca: { valor: { original: 3000 } } }));
    spec.then(txid, (row) => expect(row).toBeNull());
    expect(cobvProjection.columns.find((c) => c.name === 'recebedor_id')!.value(state2 as never)).toBe('local');
  });
});

describe('cobv projection: removal by the PSP', () => {
  it('shows REMOVIDA_PELO_PSP in the row and its status column (what GET, lists and the payload location read)', () => {
    const created = cobvDecider.decide(put('10.00'), cobvDecider.initialState);
    const state1 = created.reduce(cobvDecider.evolve, cobvDecider.initialState);
    const removed = cobvDecider.decide({ type: 'RemoverCobVPeloPsp', txid, chave: '+5581999990000', motivo: 'chave removida', now }, state1);
    expect(cobvProjection.canHandle).toContain('CobVRemovidaPeloPsp');
    projectionSpec(cobvProjection)
      .given(recorded([...created, ...removed], cobvStreamId('local', txid)))
      .then(`local/${txid}`, (row) => {
        expect(row).toMatchObject({ txid, revisao: 1, status: 'REMOVIDA_PELO_PSP' });
        expect(cobvProjection.columns.find((c) => c.name === 'status')!.value(row as never)).toBe('REMOVIDA_PELO_PSP');
      });
  });
});

describe('cobv projection: location_token', () => {
  it('is the last path segment of the stored location, scheme-less or not', () => {
    const column = cobvProjection.columns.find((c) => c.name === 'location_token')!;
    expect(column.indexed).toBe(true);
    const row = (location: string) => ({ loc: { id: 1, location, criacao: '' } }) as never;
    expect(column.value(row('pix.example.com/qr/v2/cobv/0123456789abcdef0123456789abcdef'))).toBe('0123456789abcdef0123456789abcdef');
    expect(column.value(row('https://pix.example.com/qr/v2/cobv/abc'))).toBe('abc');
    expect(column.value({} as never)).toBeUndefined();
  });
});
