import type { Pool } from 'pg';
import type { PixRecebido } from '@pix/domain';
import { pixProjection, type PixRow } from './pix-projection';

export interface PixListFilter {
  inicio: Date;
  fim: Date;
  txid?: string;
  txIdPresente?: boolean;
  devolucaoPresente?: boolean;
  cpf?: string;
  cnpj?: string;
  paginaAtual: number;
  itensPorPagina: number;
}

const table = pixProjection.table;

/** One receiver's Pix; another receiver's (or nobody's) is not there for it. */
export async function findPix(db: Pick<Pool, 'query'>, recebedorId: string, endToEndId: string): Promise<PixRecebido | undefined> {
  const { rows } = await db.query<{ doc: PixRow }>(`SELECT doc FROM ${table} WHERE id = $1 AND recebedor_id = $2`, [endToEndId, recebedorId]);
  return rows[0]?.doc.pix;
}

/** One receiver's Pix received in [inicio, fim], filtered, one page in time order, with the total. */
export async function listPix(db: Pick<Pool, 'query'>, recebedorId: string, f: PixListFilter): Promise<{ rows: PixRecebido[]; total: number }> {
  // No refunds exist yet, so asking only for Pix with refunds finds none.
  if (f.devolucaoPresente === true) return { rows: [], total: 0 };
  const where = ['recebedor_id = $1', 'horario >= $2', 'horario <= $3'];
  const params: unknown[] = [recebedorId, f.inicio, f.fim];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(`${sql} $${params.length}`);
  };
  if (f.txid) add('txid =', f.txid);
  if (f.txIdPresente === true) where.push('txid IS NOT NULL');
  if (f.txIdPresente === false) where.push('txid IS NULL');
  if (f.cpf) add('pagador_cpf =', f.cpf);
  if (f.cnpj) add('pagador_cnpj =', f.cnpj);
  const sqlWhere = where.join(' AND ');
  const total = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${sqlWhere}`, params);
  const page = await db.query<{ doc: PixRow }>(
    `SELECT doc FROM ${table} WHERE ${sqlWhere} ORDER BY horario, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, f.itensPorPagina, f.paginaAtual * f.itensPorPagina],
  );
  return { rows: page.rows.map((r) => r.doc.pix), total: Number(total.rows[0].n) };
}
