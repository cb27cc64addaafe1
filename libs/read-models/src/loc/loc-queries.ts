import type { Pool } from 'pg';
import { payloadLocation, tenantKey } from '@pix/domain';
import type { PayloadLocationCompletaWire } from '@pix/contracts';
import { locProjection, type LocRow } from './loc-projection';

export interface LocListFilter {
  inicio: Date;
  fim: Date;
  txIdPresente?: boolean;
  tipoCob?: string;
  paginaAtual: number;
  itensPorPagina: number;
}

type Db = Pick<Pool, 'query'>;
const table = locProjection.table;

/** One receiver's location; another receiver's with the same id is not there for it. */
export async function findLoc(db: Db, recebedorId: string, id: number): Promise<LocRow | undefined> {
  const { rows } = await db.query<{ doc: LocRow }>(`SELECT doc FROM ${table} WHERE id = $1 AND recebedor_id = $2`, [tenantKey(recebedorId, String(id)), recebedorId]);
  return rows[0]?.doc;
}

/** One receiver's locations created in [inicio, fim], filtered, one page in creation order, with the total. */
export async function listLoc(db: Db, recebedorId: string, f: LocListFilter): Promise<{ rows: LocRow[]; total: number }> {
  const where = ['recebedor_id = $1', 'criacao >= $2', 'criacao <= $3'];
  const params: unknown[] = [recebedorId, f.inicio, f.fim];
  if (f.txIdPresente !== undefined) where.push(f.txIdPresente ? 'txid IS NOT NULL' : 'txid IS NULL');
  if (f.tipoCob !== undefined) {
    params.push(f.tipoCob);
    where.push(`tipo_cob = $${params.length}`);
  }
  const sqlWhere = where.join(' AND ');
  const total = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${sqlWhere}`, params);
  const page = await db.query<{ doc: LocRow }>(
    `SELECT doc FROM ${table} WHERE ${sqlWhere} ORDER BY criacao, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, f.itensPorPagina, f.paginaAtual * f.itensPorPagina],
  );
  return { rows: page.rows.map((r) => r.doc), total: Number(total.rows[0].n) };
}

/** The official `PayloadLocationCompleta` (scheme-less location, as the BR Code carries it). */
export function toPayloadLocationCompleta(row: LocRow): PayloadLocationCompletaWire {
  return {
    id: row.id,
    ...(row.txid !== undefined ? { txid: row.txid } : {}),
    location: payloadLocation(row.location),
    tipoCob: row.tipoCob,
    criacao: row.criacao,
  };
}
