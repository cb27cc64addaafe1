import type { Pool } from 'pg';
import { lotecobvProjection, solicitacaoLoteProjection, type LoteCobVRow, type SolicitacaoLoteRow } from './lotecobv-projection';

type Db = Pick<Pool, 'query'>;
const lotes = lotecobvProjection.table;
const itens = solicitacaoLoteProjection.table;

export async function findLoteCobV(db: Db, id: string): Promise<{ lote: LoteCobVRow; itens: SolicitacaoLoteRow[] } | undefined> {
  const { rows } = await db.query<{ doc: LoteCobVRow }>(`SELECT doc FROM ${lotes} WHERE id = $1`, [id]);
  if (rows.length === 0) return undefined;
  return { lote: rows[0].doc, itens: await itemsOf(db, [id]).then((m) => m.get(id) ?? []) };
}

export async function listLotesCobV(
  db: Db,
  f: { inicio: Date; fim: Date; paginaAtual: number; itensPorPagina: number },
): Promise<{ lotes: { lote: LoteCobVRow; itens: SolicitacaoLoteRow[] }[]; total: number }> {
  const where = 'criacao >= $1 AND criacao <= $2';
  const total = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${lotes} WHERE ${where}`, [f.inicio, f.fim]);
  const page = await db.query<{ doc: LoteCobVRow }>(`SELECT doc FROM ${lotes} WHERE ${where} ORDER BY criacao, id LIMIT $3 OFFSET $4`, [
    f.inicio,
    f.fim,
    f.itensPorPagina,
    f.paginaAtual * f.itensPorPagina,
  ]);
  const byLote = await itemsOf(db, page.rows.map((r) => r.doc.id));
  return { lotes: page.rows.map((r) => ({ lote: r.doc, itens: byLote.get(r.doc.id) ?? [] })), total: Number(total.rows[0].n) };
}

async function itemsOf(db: Db, ids: string[]): Promise<Map<string, SolicitacaoLoteRow[]>> {
  const { rows } = await db.query<{ doc: SolicitacaoLoteRow }>(`SELECT doc FROM ${itens} WHERE lote_id = ANY($1::text[]) ORDER BY lote_id, posicao`, [ids]);
  const map = new Map<string, SolicitacaoLoteRow[]>();
  for (const { doc } of rows) map.set(doc.loteCobVId, [...(map.get(doc.loteCobVId) ?? []), doc]);
  return map;
}

/** Batch requests naming these txids, in any batch. */
export async function findSolicitacoesByTxid(db: Db, txids: string[]): Promise<SolicitacaoLoteRow[]> {
  const { rows } = await db.query<{ doc: SolicitacaoLoteRow }>(`SELECT doc FROM ${itens} WHERE txid = ANY($1::text[])`, [txids]);
  return rows.map((r) => r.doc);
}

/** Work for the batch processor: up to `perBatch` pending requests of every batch, in request order. */
export async function pendingSolicitacoes(db: Db, perBatch: number): Promise<SolicitacaoLoteRow[]> {
  const { rows } = await db.query<{ doc: SolicitacaoLoteRow }>(
    `SELECT doc FROM (
       SELECT doc, row_number() OVER (PARTITION BY lote_id ORDER BY posicao) AS n FROM ${itens} WHERE status = 'EM_PROCESSAMENTO'
     ) pending WHERE n <= $1 ORDER BY n, (doc->>'loteCobVId')`,
    [perBatch],
  );
  return rows.map((r) => r.doc);
}
