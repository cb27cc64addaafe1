import { lotecobvKeyOfStream, positionsIn, splitTenantKey, tenantKey, type LoteCobVEvent, type ProblemaSolicitacao, type StatusSolicitacao, type ViaLote } from '@pix/domain';
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
  /** Later rounds that reached this request while its round was still undecided, oldest first. */
  fila?: RodadaPendente[];
}

/** A round of one request waiting behind an undecided one. */
export interface RodadaPendente {
  rodada: number;
  via: ViaLote;
  corpo: Record<string, unknown>;
}

/** `{recebedorId}/{loteCobVId}:{txid}`: a request's row id. */
export const itemKey = (loteKey: string, txid: string) => `${loteKey}:${txid}`;

/** The batch's tenant key `{recebedorId}/{loteCobVId}` (the `lote_id` column). */
export const loteKeyOf = (row: Pick<SolicitacaoLoteRow, 'recebedorId' | 'loteCobVId'>) => tenantKey(row.recebedorId, row.loteCobVId);

/**
 * One row per request of a batch: its current round, body and decision. It is also the work list
 * of the batch processor (rows EM_PROCESSAMENTO) and what PUT /cobv consults for reservations.
 * Rounds of one request are decided in order: a PUT or PATCH of the batch that reaches a request
 * whose round is undecided waits in `fila`, and the decision of the round before hands it over.
 * (Until 2026-11-27 the later round replaced the undecided one, so a PATCH sent right after the
 * creation lost the creation: an audit.)
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
      if (!row || row.status !== 'EM_PROCESSAMENTO' || e.data.rodada < row.rodada) return row;
      // A later round decided first: a version before the queue replaced the rounds in between.
      const current = e.data.rodada === row.rodada ? row : skipTo(row, e.data.rodada);
      if (!current) return row;
      const { problema: _previous, fila, ...rest } = current;
      const decided = { ...rest, status: e.data.status, ...(e.data.criacao ? { criacao: e.data.criacao } : {}), ...(e.data.problema ? { problema: e.data.problema } : {}) };
      return fila && fila.length > 0 ? next(decided, fila) : decided;
    }
    const loteKey = lotecobvKeyOfStream(event.streamId)!;
    const index = key.startsWith(`${loteKey}:`) ? positionOf(e.data.solicitacoes, key.slice(loteKey.length + 1)) : -1;
    const s = e.data.solicitacoes[index];
    if (e.type === 'LoteCobVCriado')
      return { recebedorId: splitTenantKey(loteKey).recebedorId, loteCobVId: e.data.id, txid: s.txid, posicao: index, rodada: 0, via: 'CRIACAO', status: 'EM_PROCESSAMENTO', corpo: s.corpo };
    if (!row) return row;
    const round: RodadaPendente = { rodada: e.data.rodada, via: e.data.via, corpo: s.corpo };
    if (row.status === 'EM_PROCESSAMENTO') return { ...row, fila: [...(row.fila ?? []), round] };
    return next(row, [round]);
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

/** A request's position in its round, by txid (`positionsIn`: made once per round, not scanned per request). */
const positionOf = (solicitacoes: readonly { txid: string }[], txid: string) => positionsIn(solicitacoes, (s) => s.txid).get(txid) ?? -1;

/** The first waiting round becomes the request's round, undecided; the rest keep waiting. */
function next(row: Omit<SolicitacaoLoteRow, 'fila'>, [round, ...rest]: RodadaPendente[]): SolicitacaoLoteRow {
  const { problema: _previous, fila: _waiting, ...kept } = row as SolicitacaoLoteRow;
  return { ...kept, ...round, status: 'EM_PROCESSAMENTO', ...(rest.length > 0 ? { fila: rest } : {}) };
}

/** The row as the replaced rounds left it, at waiting round `rodada`; undefined if it is not waiting. */
function skipTo(row: SolicitacaoLoteRow, rodada: number): SolicitacaoLoteRow | undefined {
  const at = row.fila?.findIndex((r) => r.rodada === rodada) ?? -1;
  return at < 0 ? undefined : next(row, row.fila!.slice(at));
}
