import type { Pool } from 'pg';
import { cobvProjection, type CobVRow } from './cobv-projection';

export interface CobVListFilter {
  inicio: Date;
  fim: Date;
  cpf?: string;
  cnpj?: string;
  status?: string;
  locationPresente?: boolean;
  loteCobVId?: number;
  paginaAtual: number;
  itensPorPagina: number;
}

const table = cobvProjection.table;

export async function findCobV(pool: Pick<Pool, 'query'>, txid: string): Promise<CobVRow | undefined> {
  const { rows } = await pool.query<{ doc: CobVRow }>(`SELECT doc FROM ${table} WHERE id = $1`, [txid]);
  return rows[0]?.doc;
}

/** Charges created in [inicio, fim], filtered, one page in creation order, with the total. */
export async function listCobV(pool: Pick<Pool, 'query'>, f: CobVListFilter): Promise<{ rows: CobVRow[]; total: number }> {
  // Every charge here gets a location at creation: asking for charges without one finds none.
  if (f.locationPresente === false) return { rows: [], total: 0 };
  const where = ['criacao >= $1', 'criacao <= $2'];
  const params: unknown[] = [f.inicio, f.fim];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(`${sql} $${params.length}`);
  };
  if (f.cpf) add('devedor_cpf =', f.cpf);
  if (f.cnpj) add('devedor_cnpj =', f.cnpj);
  if (f.status) add('status =', f.status);
  if (f.loteCobVId !== undefined) add('lote_cobv_id =', f.loteCobVId);
  const sqlWhere = where.join(' AND ');
  const total = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${sqlWhere}`, params);
  const page = await pool.query<{ doc: CobVRow }>(
    `SELECT doc FROM ${table} WHERE ${sqlWhere} ORDER BY criacao, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, f.itensPorPagina, f.paginaAtual * f.itensPorPagina],
  );
  return { rows: page.rows.map((r) => r.doc), total: Number(total.rows[0].n) };
}
