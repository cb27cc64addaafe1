import { pageWithTotal } from '../page-with-total';
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
  const { rows, total } = await pageWithTotal<{ doc: PixRow }>(db, { from: table, where: where.join(' AND '), params, columns: 'doc', orderBy: ['horario', 'id'], itensPorPagina: f.itensPorPagina, paginaAtual: f.paginaAtual });
  return { rows: rows.map((r) => r.doc.pix), total };
}
