import { lotecobvStreamId, type LoteCobVEvent } from '@pix/domain';
import { projectionSpec, recorded } from '../testing/projection-spec';
import { solicitacaoLoteProjection, type SolicitacaoLoteRow } from './lotecobv-projection';

const em = '2026-11-27T12:00:00.000Z';
const stream = lotecobvStreamId('local', '7');
const key = (txid: string) => `local/7:${txid}`;
const body = (nome: string) => ({ devedor: { cpf: '12345678909', nome } });
const created: LoteCobVEvent = { type: 'LoteCobVCriado', data: { id: '7', descricao: 'd', criacao: em, solicitacoes: [{ txid: 'a', corpo: body('A0') }, { txid: 'b', corpo: body('B0') }] } };
const altered = (rodada: number, via: 'ALTERACAO_PUT' | 'REVISAO_PATCH', solicitacoes: { txid: string; corpo: Record<string, unknown> }[]): LoteCobVEvent => ({ type: 'LoteCobVAlterado', data: { id: '7', rodada, via, em, solicitacoes } });
const decided = (rodada: number, txid: string, status: 'CRIADA' | 'NEGADA' = 'CRIADA'): LoteCobVEvent => ({ type: 'SolicitacaoLoteDecidida', data: { id: '7', rodada, txid, em, status, ...(status === 'CRIADA' ? { criacao: em } : { problema: { tipo: 'CobVOperacaoInvalida', detail: 'x', violacoes: [] } }) } });
const rowAfter = (events: LoteCobVEvent[], txid: string) => {
  let found: SolicitacaoLoteRow | null = null;
  projectionSpec(solicitacaoLoteProjection).given(recorded(events, stream)).then(key(txid), (row) => (found = row));
  return found as SolicitacaoLoteRow | null;
};
const shown = (row: SolicitacaoLoteRow | null) => row && { rodada: row.rodada, via: row.via, status: row.status, nome: (row.corpo.devedor as { nome: string }).nome, fila: row.fila?.map((r) => r.rodada) };

describe('rm_lotecobv_solicitacao: the rounds of one request are decided in order', () => {
  it('keeps a PATCH sent before the creation is decided waiting, and hands it over at the decision', () => {
    const patched = altered(1, 'REVISAO_PATCH', [{ txid: 'b', corpo: body('B1') }]);
    expect(shown(rowAfter([created, patched], 'b'))).toEqual({ rodada: 0, via: 'CRIACAO', status: 'EM_PROCESSAMENTO', nome: 'B0', fila: [1] });
    expect(shown(rowAfter([created, patched, decided(0, 'b')], 'b'))).toEqual({ rodada: 1, via: 'REVISAO_PATCH', status: 'EM_PROCESSAMENTO', nome: 'B1', fila: undefined });
    expect(rowAfter([created, patched, decided(0, 'b')], 'b')).toMatchObject({ criacao: em });
    expect(shown(rowAfter([created, patched, decided(0, 'b'), decided(1, 'b')], 'b'))).toEqual({ rodada: 1, via: 'REVISAO_PATCH', status: 'CRIADA', nome: 'B1', fila: undefined });
    // The request the PATCH left out is not touched.
    expect(shown(rowAfter([created, patched], 'a'))).toEqual({ rodada: 0, via: 'CRIACAO', status: 'EM_PROCESSAMENTO', nome: 'A0', fila: undefined });
  });

  it('queues a PUT round and a PATCH round behind an undecided one, and drops the problem of a decided round', () => {
    const events = [created, decided(0, 'a'), altered(1, 'ALTERACAO_PUT', [{ txid: 'a', corpo: body('A1') }, { txid: 'b', corpo: body('B1') }]), altered(2, 'REVISAO_PATCH', [{ txid: 'a', corpo: body('A2') }])];
    expect(shown(rowAfter(events, 'a'))).toEqual({ rodada: 1, via: 'ALTERACAO_PUT', status: 'EM_PROCESSAMENTO', nome: 'A1', fila: [2] });
    expect(shown(rowAfter(events, 'b'))).toEqual({ rodada: 0, via: 'CRIACAO', status: 'EM_PROCESSAMENTO', nome: 'B0', fila: [1] });
    const b = rowAfter([...events, decided(0, 'b', 'NEGADA')], 'b');
    expect(shown(b)).toEqual({ rodada: 1, via: 'ALTERACAO_PUT', status: 'EM_PROCESSAMENTO', nome: 'B1', fila: undefined });
    expect(b).not.toHaveProperty('problema');
  });

  it('reads streams a version without the queue wrote: a later round decided first skips the replaced ones', () => {
    const legacy = [created, altered(1, 'REVISAO_PATCH', [{ txid: 'b', corpo: body('B1') }]), decided(1, 'b', 'NEGADA')];
    expect(shown(rowAfter(legacy, 'b'))).toEqual({ rodada: 1, via: 'REVISAO_PATCH', status: 'NEGADA', nome: 'B1', fila: undefined });
    // A stale decision of a round already passed changes nothing.
    expect(shown(rowAfter([...legacy, decided(0, 'b')], 'b'))).toEqual({ rodada: 1, via: 'REVISAO_PATCH', status: 'NEGADA', nome: 'B1', fila: undefined });
  });
});
