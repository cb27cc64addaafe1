import type { Pool } from 'pg';
import { tenantKey } from '@pix/domain';
import { RoundTripSharing } from '@pix/event-store';
import { cobvProjection, type CobVRow } from './cobv-projection';

type Db = Pick<Pool, 'query'>;

interface Waiter {
  recebedorId: string;
  resolve(row: CobVRow | undefined): void;
  reject(error: unknown): void;
}

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
  private readonly pending = new Map<string, Waiter[]>();
  private readonly sharing: RoundTripSharing;
  private readonly maxBatch: number;

  constructor(private readonly db: Db, options: CobVLookupsOptions = {}) {
    this.maxBatch = options.maxBatch ?? 256;
    this.sharing = new RoundTripSharing({ hasPending: () => this.pending.size > 0, sendNext: () => this.send(this.take()) }, options.maxInFlight ?? 4);
  }

  /** One receiver's charge; another receiver's charge with the same txid is not there for it. */
  find(recebedorId: string, txid: string): Promise<CobVRow | undefined> {
    return new Promise((resolve, reject) => {
      const key = tenantKey(recebedorId, txid);
      const waiters = this.pending.get(key);
      const waiter = { recebedorId, resolve, reject };
      if (waiters) waiters.push(waiter);
      else this.pending.set(key, [waiter]);
      this.sharing.schedule();
    });
  }

  private take(): Map<string, Waiter[]> {
    const batch = new Map<string, Waiter[]>();
    for (const [key, waiters] of this.pending) {
      if (batch.size >= this.maxBatch) break;
      batch.set(key, waiters);
      this.pending.delete(key);
    }
    return batch;
  }

  private async send(batch: Map<string, Waiter[]>): Promise<void> {
    try {
      const { rows } = await this.db.query<{ id: string; recebedor_id: string; doc: CobVRow }>({
        name: 'rm_cobv_find_many',
        text: `SELECT id, recebedor_id, doc FROM ${cobvProjection.table} WHERE id = ANY($1::text[])`,
        values: [[...batch.keys()]],
      });
      const found = new Map(rows.map((r) => [r.id, r]));
      for (const [key, waiters] of batch) {
        const row = found.get(key);
        // The key already names the receiver; the column is checked too, as findCobV does.
        for (const w of waiters) w.resolve(row && row.recebedor_id === w.recebedorId ? row.doc : undefined);
      }
    } catch (error) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
    }
  }
}
