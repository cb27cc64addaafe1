import type { Pool } from 'pg';
import { AppendConditionFailedError } from '../port';
import { groupAppendParams, groupAppendSql, type GroupItem } from './group-append';
import { inlineShape } from './inline';
import { RoundTripSharing } from '../round-trip-sharing';

/** What the single inline statement answers (see inlineAppendSql), per append. */
export interface AppendRow {
  global_position: string;
  transaction_id: string;
  stream_revision: string;
  current_revision?: string | null;
  ids_taken?: string;
}

export interface GroupCommitOptions {
  /**
   * Statements in flight at once (default 1); appends arriving meanwhile wait and ride the next
   * one. One in flight makes the groups larger, and a larger group costs less per append on both
   * sides: 64 concurrent PUTs ran 15-20% faster than with 4 (docs/benchmarks.md, 2026-11-26).
   */
  maxInFlight?: number;
  /** Appends per statement. */
  maxBatch?: number;
}

interface Pending {
  item: GroupItem;
  single(): Promise<AppendRow[]>;
  resolve(rows: AppendRow[]): void;
  reject(error: unknown): void;
}

/**
 * Group commit for appends at exact revisions (ADR 14): appends made while the loop is busy (the same
 * turn, or while the statement before is out) go to PostgreSQL as one statement and one
 * commit. Under concurrent PUTs that replaces a statement, a commit and a socket write per
 * request with one per group. A lone append runs the single statement, at the end of its own
 * turn; a group that fails changed nothing, and each of its appends then runs alone.
 */
export class GroupCommit {
  private readonly pending = new Map<string, Pending[]>();
  private readonly sharing: RoundTripSharing;
  private readonly maxBatch: number;

  constructor(private readonly pool: Pool, options: GroupCommitOptions = {}) {
    this.maxBatch = options.maxBatch ?? 64;
    this.sharing = new RoundTripSharing({ hasPending: () => this.pending.size > 0, sendNext: () => this.send(this.take()) }, options.maxInFlight ?? 1);
  }

  run(item: GroupItem, single: () => Promise<AppendRow[]>): Promise<AppendRow[]> {
    return new Promise((resolve, reject) => {
      const shape = inlineShape(item.writes, item.conditions);
      const queue = this.pending.get(shape);
      const entry = { item, single, resolve, reject };
      if (queue) queue.push(entry);
      else this.pending.set(shape, [entry]);
      this.sharing.schedule();
    });
  }

  /** The oldest shape's appends, one per stream (a second append to a stream waits its turn). */
  private take(): Pending[] {
    const [shape, queue] = this.pending.entries().next().value as [string, Pending[]];
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    const streams = new Set<string>();
    for (const p of queue) {
      if (batch.length < this.maxBatch && !streams.has(p.item.streamId)) {
        streams.add(p.item.streamId);
        batch.push(p);
      } else rest.push(p);
    }
    if (rest.length > 0) this.pending.set(shape, rest);
    else this.pending.delete(shape);
    return batch;
  }

  private async send(batch: Pending[]): Promise<void> {
    if (batch.length === 1) return alone(batch[0]);
    let rows: (AppendRow & { k: number; cond_ok: boolean })[];
    try {
      ({ rows } = await this.pool.query({ ...groupAppendSql(batch[0].item.writes, batch[0].item.conditions), values: groupAppendParams(batch.map((p) => p.item)) }));
    } catch {
      // Nothing was written (one statement): a guard, a concurrent writer or a lost connection
      // is told to each append by its own statement.
      await Promise.all(batch.map(alone));
      return;
    }
    const byItem = batch.map(() => [] as AppendRow[]);
    for (const row of rows) if (row.cond_ok) byItem[row.k].push(row);
    batch.forEach((p, k) => {
      const own = byItem[k];
      // Inserted: its events' rows; not inserted: one row with the revision and the ids taken,
      // as the single statement answers.
      if (own.length === 0) p.reject(new AppendConditionFailedError(p.item.streamId, p.item.conditions.map((c) => c.name)));
      else p.resolve(own);
    });
  }
}

const alone = (p: Pending) => p.single().then(p.resolve, p.reject);
