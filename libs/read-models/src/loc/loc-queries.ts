import { pageWithTotal } from '../page-with-total';
import type { Pool } from 'pg';
import { payloadLocation, tenantKey } from '@pix/domain';
import type { PayloadLocationCompletaWire } from '@pix/contracts';
import { cobvProjection } from '../cobv/cobv-projection';
import { cobvExisteParaLeitores } from '../lotecobv/lotecobv-queries';
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

/**
 * SQL condition on a row of rm_loc (alias `l`): it names a charge that exists for readers. A
 * charge its batch is still creating does not (ADR 6), so while its request is EM_PROCESSAMENTO
 * its location shows no txid, as its payload location serves nothing: the same condition as
 * every read of rm_cobv, in the same statement. A row with no txid probes with a NULL key.
 */
const txidVisivel = (l: string) =>
  `EXISTS (SELECT 1 FROM ${cobvProjection.table} c WHERE c.id = ${l}.recebedor_id || '/' || ${l}.txid AND c.recebedor_id = ${l}.recebedor_id AND ${cobvExisteParaLeitores('c')})`;

/** The row as readers see it: `txid` only when txidVisivel said so. */
const forReaders = ({ doc, visivel }: { doc: LocRow; visivel: boolean }): LocRow => {
  if (visivel || doc.txid === undefined) return doc;
  const { txid: _hidden, ...rest } = doc;
  return rest;
};

/** One receiver's location as readers see it; another receiver's with the same id is not there for it. */
export async function findLoc(db: Db, recebedorId: string, id: number): Promise<LocRow | undefined> {
  const { rows } = await db.query<{ doc: LocRow; visivel: boolean }>(`SELECT doc, ${txidVisivel('l')} AS visivel FROM ${table} l WHERE id = $1 AND recebedor_id = $2`, [
    tenantKey(recebedorId, String(id)),
    recebedorId,
  ]);
  return rows[0] && forReaders(rows[0]);
}

/**
 * One receiver's location as stored, the txid of a charge still being created by its batch
 * included: for writes, which must see what holds the location (as PUT /lotecobv counts such a
 * charge's txid as taken).
 */
export async function findLocAsStored(db: Db, recebedorId: string, id: number): Promise<LocRow | undefined> {
  const { rows } = await db.query<{ doc: LocRow }>(`SELECT doc FROM ${table} WHERE id = $1 AND recebedor_id = $2`, [tenantKey(recebedorId, String(id)), recebedorId]);
  return rows[0]?.doc;
}

/** One receiver's locations created in [inicio, fim], as readers see them, filtered, one page in creation order, with the total. */
export async function listLoc(db: Db, recebedorId: string, f: LocListFilter): Promise<{ rows: LocRow[]; total: number }> {
  const where = ['recebedor_id = $1', 'criacao >= $2', 'criacao <= $3'];
  const params: unknown[] = [recebedorId, f.inicio, f.fim];
  if (f.txIdPresente !== undefined) where.push(f.txIdPresente ? txidVisivel('l') : `NOT ${txidVisivel('l')}`);
  if (f.tipoCob !== undefined) {
    params.push(f.tipoCob);
    where.push(`tipo_cob = $${params.length}`);
  }
  const columns = `doc, ${txidVisivel('l')} AS visivel`;
  const { rows, total } = await pageWithTotal<{ doc: LocRow; visivel: boolean }>(db, { from: `${table} l`, where: where.join(' AND '), params, columns, orderBy: ['criacao', 'id'], itensPorPagina: f.itensPorPagina, paginaAtual: f.paginaAtual });
  return { rows: rows.map(forReaders), total };
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
