import { pageWithTotal } from '../page-with-total';
import type { Pool } from 'pg';
import { tenantKey } from '@pix/domain';
import { cobvExisteParaLeitores } from '../lotecobv/lotecobv-queries';
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

type Db = Pick<Pool, 'query'>;
const table = cobvProjection.table;
/** Charges a batch is still creating do not exist for readers (see cobvExisteParaLeitores). */
const existe = cobvExisteParaLeitores('c');

/** One receiver's charge; another receiver's charge with the same txid is not there for it. */
export async function findCobV(db: Db, recebedorId: string, txid: string): Promise<CobVRow | undefined> {
  const { rows } = await db.query<{ doc: CobVRow }>(`SELECT doc FROM ${table} c WHERE id = $1 AND recebedor_id = $2 AND ${existe}`, [tenantKey(recebedorId, txid), recebedorId]);
  return rows[0]?.doc;
}

/** The charge (of any receiver) whose payload location ends in this token: the payer's bank knows no tenant. */
export async function findCobVByLocationToken(db: Db, token: string): Promise<CobVRow | undefined> {
  const { rows } = await db.query<{ doc: CobVRow }>(`SELECT doc FROM ${table} c WHERE location_token = $1 AND ${existe} LIMIT 2`, [token]);
  // Tokens are 128 random bits; two rows sharing one would be a bug, and serving either would leak.
  return rows.length === 1 ? rows[0].doc : undefined;
}

/**
 * Which of these txids are charges of this receiver, hidden ones included: for PUT /lotecobv's
 * check, where a charge still being created by another batch holds its txid all the same.
 */
export async function existingCobVTxids(db: Db, recebedorId: string, txids: string[]): Promise<string[]> {
  const { rows } = await db.query<{ txid: string }>(`SELECT doc->>'txid' AS txid FROM ${table} WHERE id = ANY($1::text[]) AND recebedor_id = $2`, [
    txids.map((t) => tenantKey(recebedorId, t)),
    recebedorId,
  ]);
  return rows.map((r) => r.txid);
}

/** One receiver's charges created in [inicio, fim], filtered, one page in creation order, with the total. */
export async function listCobV(db: Db, recebedorId: string, f: CobVListFilter): Promise<{ rows: CobVRow[]; total: number }> {
  const where = ['recebedor_id = $1', 'criacao >= $2', 'criacao <= $3', existe];
  // A charge has a location from creation until DELETE /loc/{id}/txid unlinks it.
  if (f.locationPresente !== undefined) where.push(f.locationPresente ? "doc ? 'loc'" : "NOT (doc ? 'loc')");
  const params: unknown[] = [recebedorId, f.inicio, f.fim];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(`${sql} $${params.length}`);
  };
  if (f.cpf) add('devedor_cpf =', f.cpf);
  if (f.cnpj) add('devedor_cnpj =', f.cnpj);
  if (f.status) add('status =', f.status);
  if (f.loteCobVId !== undefined) add('lote_cobv_id =', f.loteCobVId);
  const { rows, total } = await pageWithTotal<{ doc: CobVRow }>(db, { from: `${table} c`, where: where.join(' AND '), params, columns: 'doc', orderBy: ['criacao', 'id'], itensPorPagina: f.itensPorPagina, paginaAtual: f.paginaAtual });
  return { rows: rows.map((r) => r.doc), total };
}

/**
 * One page (in txid order, after `depoisDe`) of the receiver's ATIVA charges on this Pix key,
 * hidden ones included: what `admin key remove` takes away with the key. Paged by key, not by
 * status, so a read model that lags (EventStoreDB) cannot make the sweep go round for ever.
 */
export async function ativaCobVTxidsNaChave(db: Db, recebedorId: string, chave: string, depoisDe: string | undefined, limite: number): Promise<string[]> {
  const { rows } = await db.query<{ txid: string }>(
    `SELECT doc->>'txid' AS txid FROM ${table} WHERE recebedor_id = $1 AND status = 'ATIVA' AND doc->'cobranca'->>'chave' = $2 AND id > $3 ORDER BY id LIMIT $4`,
    [recebedorId, chave, depoisDe === undefined ? '' : tenantKey(recebedorId, depoisDe), limite],
  );
  return rows.map((r) => r.txid);
}
