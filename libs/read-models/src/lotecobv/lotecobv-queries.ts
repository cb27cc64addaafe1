import { pageWithTotal } from '../page-with-total';
import type { Pool } from 'pg';
import { tenantKey } from '@pix/domain';
import type { AppendCondition } from '@pix/event-store';
import { itemKey, lotecobvProjection, solicitacaoLoteProjection, type LoteCobVRow, type SolicitacaoLoteRow } from './lotecobv-projection';

type Db = Pick<Pool, 'query'>;
const lotes = lotecobvProjection.table;
const itens = solicitacaoLoteProjection.table;

/** A request as a batch's readers see it (what the processor alone needs is left out). */
export type SolicitacaoLoteVista = Omit<SolicitacaoLoteRow, 'corpo' | 'fila'>;

export interface LoteCobVComItens {
  lote: LoteCobVRow;
  itens: SolicitacaoLoteVista[];
}

/** One receiver's batch with its requests; another receiver's batch with the same id is not there for it. */
export async function findLoteCobV(db: Db, recebedorId: string, id: string): Promise<LoteCobVComItens | undefined> {
  return (await findLotesCobV(db, recebedorId, [id]))[0];
}

/**
 * One receiver's batches with their requests, in the order of `ids` (those it does not have are
 * left out). What the answer shows of each request: not the body it carries for the processor
 * (up to MAX_BODY_BYTES a batch), nor rounds waiting behind it.
 */
export async function findLotesCobV(db: Db, recebedorId: string, ids: readonly string[]): Promise<LoteCobVComItens[]> {
  const { rows } = await db.query<LoteCobVComItens>(
    `SELECT l.doc AS lote, coalesce((SELECT json_agg(s.doc - 'corpo' - 'fila' ORDER BY s.posicao) FROM ${itens} s WHERE s.lote_id = l.id AND s.recebedor_id = $2), '[]') AS itens
       FROM unnest($1::text[]) WITH ORDINALITY AS k(id, n) JOIN ${lotes} l ON l.id = k.id AND l.recebedor_id = $2
      ORDER BY k.n`,
    [ids.map((id) => tenantKey(recebedorId, id)), recebedorId],
  );
  return rows;
}

/** A batch of a listed page, with what reading it costs: its requests and its description's bytes. */
export interface LoteListado {
  id: string;
  quantidade: number;
  descricaoBytes: number;
}

/**
 * One receiver's batches created in [inicio, fim]: one page in creation order, with the total.
 * The page names its batches and their sizes only: a page of 1,000 batches of 1,000 requests is
 * too much for one statement, one object or one string (an audit); the caller reads them in
 * groups it can hold (`gruposDeLeitura`).
 */
export async function listLotesCobV(db: Db, recebedorId: string, f: { inicio: Date; fim: Date; paginaAtual: number; itensPorPagina: number }): Promise<{ lotes: LoteListado[]; total: number }> {
  const where = 'recebedor_id = $1 AND criacao >= $2 AND criacao <= $3';
  const params = [recebedorId, f.inicio, f.fim];
  const columns = "doc->>'id' AS lote, (doc->>'quantidade')::int AS quantidade, octet_length(doc->>'descricao') AS descricao_bytes";
  const { rows, total } = await pageWithTotal<{ lote: string; quantidade: number | null; descricao_bytes: number | null }>(db, { from: lotes, where, params, columns, orderBy: ['criacao', 'id'], itensPorPagina: f.itensPorPagina, paginaAtual: f.paginaAtual });
  // A size not known (a row written otherwise) is read alone.
  const size = (n: number | null) => (typeof n === 'number' ? n : Number.POSITIVE_INFINITY);
  return { lotes: rows.map((r) => ({ id: r.lote, quantidade: size(r.quantidade), descricaoBytes: size(r.descricao_bytes) })), total };
}

/**
 * A page's batches in consecutive groups, each read by one statement and held whole: as many
 * batches as fit in `limite` requests and `limite.descricaoBytes` of descriptions, so a group
 * holds no more than one of the largest batches would. A batch past either limit goes alone.
 * Read one at a time, a page of 451 small batches took 246-321 ms against 9-21 ms in one
 * statement (ADR 6).
 */
export function gruposDeLeitura(lotes: readonly LoteListado[], limite: { solicitacoes: number; descricaoBytes: number }): string[][] {
  const grupos: string[][] = [];
  let grupo: string[] = [];
  let solicitacoes = 0;
  let bytes = 0;
  for (const lote of lotes) {
    if (grupo.length > 0 && (solicitacoes + lote.quantidade > limite.solicitacoes || bytes + lote.descricaoBytes > limite.descricaoBytes)) {
      grupos.push(grupo);
      grupo = [];
      solicitacoes = 0;
      bytes = 0;
    }
    grupo.push(lote.id);
    solicitacoes += lote.quantidade;
    bytes += lote.descricaoBytes;
  }
  if (grupo.length > 0) grupos.push(grupo);
  return grupos;
}

/** This receiver's batch requests naming these txids, in any of its batches. */
export async function findSolicitacoesByTxid(db: Db, recebedorId: string, txids: string[]): Promise<SolicitacaoLoteRow[]> {
  const { rows } = await db.query<{ doc: SolicitacaoLoteRow }>(`SELECT doc FROM ${itens} WHERE recebedor_id = $1 AND txid = ANY($2::text[])`, [recebedorId, txids]);
  return rows.map((r) => r.doc);
}

/**
 * A request that has not created its charge yet, as its batch shows it: EM_PROCESSAMENTO and never
 * CRIADA (no `criacao`, which a revision round keeps). Row alias `s`.
 */
const criacaoPendente = (s: string) => `${s}.status = 'EM_PROCESSAMENTO' AND NOT (${s}.doc ? 'criacao')`;

/**
 * SQL condition on a row of rm_cobv (alias `c`): false while the request that created the charge
 * is still a pending creation in the charge's own batch. The contract: such a request's charge
 * "não _existe_ de fato, portanto não será listada em `GET /cobv` ou `GET /cobv/{txid}`". The
 * processor appends each charge before it records the round's decisions, and projections may
 * apply in any order (EventStoreDB), so readers hide it instead (ADR 6). One primary-key probe,
 * only for a charge with a batch id (otherwise the key is NULL and matches nothing); the txid is
 * cut from the row id so that a count does not read `doc`.
 */
export const cobvExisteParaLeitores = (c: string) =>
  `NOT EXISTS (SELECT 1 FROM ${itens} s WHERE s.id = ${c}.recebedor_id || '/' || ${c}.lote_cobv_id || ':' || substr(${c}.id, length(${c}.recebedor_id) + 2) AND s.recebedor_id = ${c}.recebedor_id AND ${criacaoPendente('s')})`;

/** The same test for one charge read from its stream (GET ?revisao=), whose batch id is known. */
export async function criacaoEmLotePendente(db: Db, recebedorId: string, loteCobVId: number, txid: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM ${itens} s WHERE s.id = $1 AND s.recebedor_id = $2 AND ${criacaoPendente('s')}`, [
    itemKey(tenantKey(recebedorId, String(loteCobVId)), txid),
    recebedorId,
  ]);
  return rows.length > 0;
}

/**
 * What PUT /cobv states instead of reading when it assumes a new charge (HandleOptions.assumeNew):
 * no request of a batch of this receiver holds the txid (any status but CRIADA), checked in the
 * append's own transaction, where this inline read model is exact.
 */
export function semPendenciaDeLote(recebedorId: string, txid: string): AppendCondition {
  return { name: 'sem-pendencia-de-lote', sql: `NOT EXISTS (SELECT 1 FROM ${itens} WHERE recebedor_id = $1 AND txid = $2 AND status <> 'CRIADA')`, params: [recebedorId, txid] };
}

/**
 * Work for the batch processor, across receivers: up to `perBatch` pending requests of every
 * batch, in request order, and at most `perRound` in all, dealt out in turns: every receiver's
 * first request before any receiver's second, and within a receiver every batch's before any
 * batch's second. Each row names its receiver. Unbounded, a round took 100 requests of every
 * pending batch (55 batches of 1,000: rounds of 5,500 taking 30-80 s), and a batch of one sent
 * meanwhile waited 71 s behind them (an audit, 2026-11-27).
 */
export async function pendingSolicitacoes(db: Db, perBatch: number, perRound: number): Promise<SolicitacaoLoteRow[]> {
  const { rows } = await db.query<{ doc: SolicitacaoLoteRow }>(
    `SELECT doc FROM (
       SELECT doc, recebedor_id, row_number() OVER (PARTITION BY recebedor_id ORDER BY n, lote_id) AS turn FROM (
         SELECT doc, recebedor_id, lote_id, row_number() OVER (PARTITION BY lote_id ORDER BY posicao) AS n FROM ${itens} WHERE status = 'EM_PROCESSAMENTO'
       ) by_batch WHERE n <= $1
     ) by_receiver ORDER BY turn, recebedor_id LIMIT $2`,
    [perBatch, perRound],
  );
  return rows.map((r) => r.doc);
}

/** Requests per status of these batches (tenant keys), for the processor's progress log. */
export async function countSolicitacoesByStatus(db: Db, loteKeys: string[]): Promise<{ loteKey: string; status: string; n: number }[]> {
  const { rows } = await db.query<{ lote_id: string; status: string; n: string }>(
    `SELECT lote_id, status, count(*) AS n FROM ${itens} WHERE lote_id = ANY($1::text[]) GROUP BY lote_id, status`,
    [loteKeys],
  );
  return rows.map((r) => ({ loteKey: r.lote_id, status: r.status, n: Number(r.n) }));
}

/** Requests still EM_PROCESSAMENTO across every receiver (health). */
export async function countSolicitacoesEmProcessamento(db: Db): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${itens} WHERE status = 'EM_PROCESSAMENTO'`);
  return Number(rows[0].n);
}
