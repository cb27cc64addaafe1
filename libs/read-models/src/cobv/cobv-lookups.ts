import type { Pool } from 'pg';
import { tenantKey } from '@pix/domain';
import { SharedLookups } from '@pix/event-store';
import { cobvExisteParaLeitores } from '../lotecobv/lotecobv-queries';
import { cobvProjection, type CobVRow } from './cobv-projection';

type Db = Pick<Pool, 'query'>;

export interface CobVLookupsOptions {
  /** Statements in flight at once; lookups arriving meanwhile wait and ride the next one. */
  maxInFlight?: number;
  /** Keys per statement. */
  maxBatch?: number;
}

/**
 * `findCobV` for many concurrent requests, in few statements. Lookups made while the loop is busy
 * (the same turn, or while `maxInFlight` statements are out) are answered by one `id = ANY(...)`
 * query: under load a GET then costs a share of one round trip instead of its own (a socket
 * write that wakes a backend, and a parse and plan that were most of PostgreSQL's work per GET).
 * A lone lookup goes at the end of its own turn, so one client waits no longer than before.
 */
export class CobVLookups {
  private readonly lookups: SharedLookups<CobVRow>;

  constructor(private readonly db: Db, options: CobVLookupsOptions = {}) {
    this.lookups = new SharedLookups((keys) => this.fetch(keys), { maxInFlight: options.maxInFlight, maxBatch: options.maxBatch ?? 256 });
  }

  /** One receiver's charge; another receiver's charge with the same txid is not there for it. */
  find(recebedorId: string, txid: string): Promise<CobVRow | undefined> {
    return this.lookups.get(tenantKey(recebedorId, txid));
  }

  private async fetch(keys: string[]): Promise<Map<string, CobVRow>> {
    const { rows } = await this.db.query<{ id: string; recebedor_id: string; doc: CobVRow }>({
      name: 'rm_cobv_find_many',
      // A charge its batch is still creating is not there (ADR 6): one condition in the same statement.
      text: `SELECT id, recebedor_id, doc FROM ${cobvProjection.table} c WHERE id = ANY($1::text[]) AND ${cobvExisteParaLeitores('c')}`,
      values: [keys],
    });
    // The key already names the receiver; the column is checked too, as findCobV does.
    return new Map(rows.filter((r) => r.id === tenantKey(r.recebedor_id, r.doc.txid)).map((r) => [r.id, r.doc]));
  }
}
