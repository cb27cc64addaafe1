import { lotecobvKeyOfStream, splitTenantKey, tenantKey, type LoteCobVEvent, type ProblemaSolicitacao, type StatusSolicitacao, type ViaLote } from '@pix/domain';
import type { Projection } from '../projection';

export interface LoteCobVRow {
  recebedorId: string;
  /** The batch id as its receiver knows it. */
  id: string;
  descricao: string;
  criacao: string;
  rodada: number;
  quantidade: number;
}

/** One row per batch, id `{recebedorId}/{id}` (the stream's tenant key): what GET /lotecobv lists. */
export const lotecobvProjection: Projection<LoteCobVRow, LoteCobVEvent> = {
  name: 'lotecobv',
  table: 'rm_lotecobv',
  canHandle: ['LoteCobVCriado', 'LoteCobVAlterado'],
  keyOf: (event) => lotecobvKeyOfStream(event.streamId) ?? [],
  apply(row, event, key) {
    const e = event;
    if (e.type === 'LoteCobVCriado')
      return { recebedorId: splitTenantKey(key).recebedorId, id: e.data.id, descricao: e.data.descricao, criacao: e.data.criacao, rodada: 0, quantidade: e.data.solicitacoes.length };
    if (e.type === 'LoteCobVAlterado' && row) return { ...row, rodada: e.data.rodada, descricao: e.data.descricao ?? row.descricao };
    return row;
  },
  columns: [
    { name: 'recebedor_id', sqlType: 'text NOT NULL', value: (r) => r.recebedorId },
    { name: 'criacao', sqlType: 'timestamptz NOT NULL', value: (r) => r.criacao },
  ],
  indexes: [{ name: 'recebedor_criacao', columns: ['recebedor_id', 'criacao'] }],
  inline: 'stream',
};

export interface SolicitacaoLoteRow {
  recebedorId: string;
  /** The batch id as its receiver knows it. */
  loteCobVId: string;
  txid: string;
  posicao: number;
  rodada: number;
  via: ViaLote;
  status: StatusSolicitacao;
  corpo: Record<string, unknown>;
  /** When the charge was created (kept across alterations). */
  criacao?: string;
  problema?: ProblemaSolicitacao;
}

/** `{recebedorId}/{loteCobVId}:{txid}`: a request's row id. */
export const itemKey = (loteKey: string, txid: string) => `${loteKey}:${txid}`;

/** The batch's tenant key `{recebedorId}/{loteCobVId}` (the `lote_id` column). */
export const loteKeyOf = (row: Pick<SolicitacaoLoteRow, 'recebedorId' | 'loteCobVId'>) => tenantKey(row.recebedorId, row.loteCobVId);

/**
 * One row per request of a batch: its current round, body and decision. It is also the work list
 * of the batch processor (rows EM_PROCESSAMENTO) and what PUT /cobv consults for reservations.
 */
export const solicitacaoLoteProjection: Projection<SolicitacaoLoteRow, LoteCobVEvent> = {
  name: 'lotecobv-solicitacoes',
  table: 'rm_lotecobv_solicitacao',
  canHandle: ['LoteCobVCriado', 'LoteCobVAlterado', 'SolicitacaoLoteDecidida'],
  keyOf(event) {
    const loteKey = lotecobvKeyOfStream(event.streamId);
    if (!loteKey) return [];
    const e = event;
    if (e.type === 'SolicitacaoLoteDecidida') return itemKey(loteKey, e.data.txid);
    return e.data.solicitacoes.map((s) => itemKey(loteKey, s.txid));
  },
  apply(row, event, key) {
    const e = event;
    if (e.type === 'SolicitacaoLoteDecidida') {
      // A decision counts only for the round it was taken in, once.
      if (!row || row.rodada !== e.data.rodada || row.status !== 'EM_PROCESSAMENTO') return row;
      const { problema: _previous, ...rest } = row;
      return { ...rest, status: e.data.status, ...(e.data.criacao ? { criacao: e.data.criacao } : {}), ...(e.data.problema ? { problema: e.data.problema } : {}) };
    }
    const loteKey = lotecobvKeyOfStream(event.streamId)!;
    const index = e.data.solicitacoes.findIndex((s) => itemKey(loteKey, s.txid) === key);
    const s = e.data.solicitacoes[index];
    if (e.type === 'LoteCobVCriado')
      return { recebedorId: splitTenantKey(loteKey).recebedorId, loteCobVId: e.data.id, txid: s.txid, posicao: index, rodada: 0, via: 'CRIACAO', status: 'EM_PROCESSAMENTO', corpo: s.corpo };
    if (!row) return row;
    const { problema: _previous, ...rest } = row;
    return { ...rest, rodada: e.data.rodada, via: e.data.via, status: 'EM_PROCESSAMENTO', corpo: s.corpo };
  },
  columns: [
    { name: 'recebedor_id', sqlType: 'text NOT NULL', value: (r) => r.recebedorId },
    { name: 'lote_id', sqlType: 'text NOT NULL', value: loteKeyOf, indexed: true },
    { name: 'txid', sqlType: 'text NOT NULL', value: (r) => r.txid },
    { name: 'status', sqlType: 'text NOT NULL', value: (r) => r.status, indexed: true },
    { name: 'posicao', sqlType: 'integer NOT NULL', value: (r) => r.posicao },
    { name: 'rodada', sqlType: 'integer NOT NULL', value: (r) => r.rodada },
  ],
  // Reservations are looked up by txid within one receiver.
  indexes: [{ name: 'recebedor_txid', columns: ['recebedor_id', 'txid'] }],
  inline: 'stream',
};
