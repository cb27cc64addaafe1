import type { Pool } from 'pg';
import type { ClaimedNotification } from './claim';
import type { AttemptRecord } from './record-result';
import { urlForRecord } from './log-url';

/** One finished delivery and what its POST did. */
export interface FinishedDelivery {
  claim: ClaimedNotification;
  record: AttemptRecord;
  /** If the result applies, take the key's next due notification under a new lease (slot handover). */
  handOver: boolean;
}

/** The lease successors are taken under (one per statement). */
export interface HandoverLease {
  now: Date;
  leaseToken: string;
  leaseUntil: Date;
  /** The worker's owner number (lease-owner.ts); null or absent: the lease ends by time alone. */
  owner?: number | null;
}

export interface Recorded {
  /** Per delivery, whether its transition applied (the lease was still its worker's). */
  applied: boolean[];
  /** Deliveries taken by handover, each alone under its own id, leased to the caller. */
  next: ClaimedNotification[];
}

/**
 * Writes the attempts (one log row per notification each POST carried) and the status transition
 * of each delivery, for any number of deliveries, in one statement (atomic without BEGIN/COMMIT).
 * A transition only applies while its worker still holds the lease (same token, still pending):
 * if the lease ran out and another worker took over, or someone resent it meanwhile, a late
 * result must not override theirs; the attempt is still logged because the request did happen.
 *
 * Slot handover: for each delivery that applied and asked for it, the same statement leases its
 * key's oldest due notification (that is not a member of a multi-item batch: those are the
 * claim's). The key's count of leases, which the claim checks against its lane across all
 * workers, is the same before and after the statement: a freed slot goes back to work without
 * waiting for a claim, and no claim can see it free in between. The key's due rows are a range
 * of the (chave, next_attempt_at) index, as in the claim (claim-sql.ts says why).
 */
export async function recordAttempts(pool: Pool, finished: FinishedDelivery[], lease: HandoverLease): Promise<Recorded> {
  if (finished.length === 0) return { applied: [], next: [] };
  const ids: string[] = [];
  const of: number[] = [];
  finished.forEach((f, k) => {
    for (const id of f.claim.items) {
      ids.push(id);
      of.push(k + 1);
    }
  });
  const column = <T>(pick: (f: FinishedDelivery) => T) => finished.map(pick);
  const { rows } = await pool.query<{ k: number | null; id: string | null; chave: string | null; body: string | null; attempt: number | null; correlation_id: string | null }>({
    name: 'webhook_record_attempts',
    text: 'SELECT k, id, chave, body, attempt, correlation_id FROM webhook_record_attempts($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)',
    values: [
      ids,
      of,
      column((f) => f.claim.leaseToken),
      column((f) => (f.record.outcome === 'retry' ? 'pending' : f.record.outcome)),
      column((f) => f.record.finishedAt),
      column((f) => f.record.nextAttemptAt ?? null),
      column((f) => describeFailure(f.record)),
      column((f) => f.claim.attempt),
      column((f) => f.record.at),
      column((f) => urlForRecord(f.record.url)),
      column((f) => f.record.statusCode),
      column((f) => Math.round(f.record.latencyMs)),
      column((f) => f.record.error),
      column((f) => f.record.outcome),
      column((f) => f.claim.id),
      column((f) => f.claim.items.length),
      column((f) => f.handOver),
      lease.now,
      lease.leaseUntil,
      lease.leaseToken,
      lease.owner ?? null,
    ],
  });
  const applied = new Set(rows.filter((r) => r.k !== null).map((r) => Number(r.k) - 1));
  const next = rows
    .filter((r) => r.id !== null)
    .map((r) => ({ id: r.id!, chave: r.chave!, body: r.body!, items: [r.id!], attempt: r.attempt!, correlationIds: [r.correlation_id], leaseToken: lease.leaseToken, leaseUntil: lease.leaseUntil }));
  return { applied: finished.map((_, k) => applied.has(k)), next };
}

export function describeFailure(record: AttemptRecord): string | null {
  if (record.outcome === 'delivered') return null;
  return record.error ?? `HTTP ${record.statusCode}`;
}
