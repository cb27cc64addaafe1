import type { Pool } from 'pg';

export interface PagedQuery {
  /** `table alias`, as the filter refers to it. */
  from: string;
  /** The filter, over `params` ($1…). */
  where: string;
  params: unknown[];
  /** What each row of the page carries (`doc`, and any expression with its alias). */
  columns: string;
  /** Columns of `from` the page is ordered by (their last one unique). */
  orderBy: readonly string[];
  itensPorPagina: number;
  paginaAtual: number;
}

/**
 * A listing's page and its total in ONE statement, so both come from one snapshot: as two
 * statements, writes between them made `quantidadeTotalDeItens` disagree with the page it came
 * with (32 charges listed under a total of 28; 2026-11-27, a concurrency audit). The page travels
 * as one JSON array, ordered by `orderBy` (an aggregate keeps no order of its own).
 */
export async function pageWithTotal<R>(db: Pick<Pool, 'query'>, q: PagedQuery): Promise<{ rows: R[]; total: number }> {
  const n = q.params.length;
  const order = q.orderBy.map((c, i) => `${c} AS o${i}`).join(', ');
  const { rows } = await db.query<{ total: string; page: R[] }>(
    `SELECT (SELECT count(*) FROM ${q.from} WHERE ${q.where}) AS total,
            coalesce((SELECT json_agg(p ORDER BY ${q.orderBy.map((_, i) => `p.o${i}`).join(', ')})
                        FROM (SELECT ${q.columns}, ${order} FROM ${q.from} WHERE ${q.where}
                              ORDER BY ${q.orderBy.join(', ')} LIMIT $${n + 1} OFFSET $${n + 2}) p), '[]') AS page`,
    [...q.params, q.itensPorPagina, q.paginaAtual * q.itensPorPagina],
  );
  return { rows: rows[0].page, total: Number(rows[0].total) };
}
