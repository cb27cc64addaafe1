import type { Pool } from 'pg';
import { STILL_PENDING } from './by-id-sql';
import type { ClaimedNotification } from './claim';
import type { AttemptRecord } from './record-result';

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
  const { rows } = await pool.query<{ k: number | null; id: string | null; chave: string | null; body: string | null; attempt: number | null }>({
    name: 'webhook_record_attempts',
    text: 'SELECT k, id, chave, body, attempt FROM webhook_record_attempts($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)',
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
      column((f) => f.record.url),
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
    ],
  });
  const applied = new Set(rows.filter((r) => r.k !== null).map((r) => Number(r.k) - 1));
  const next = rows
    .filter((r) => r.id !== null)
    .map((r) => ({ id: r.id!, chave: r.chave!, body: r.body!, items: [r.id!], attempt: r.attempt!, leaseToken: lease.leaseToken, leaseUntil: lease.leaseUntil }));
  return { applied: finished.map((_, k) => applied.has(k)), next };
}

export function describeFailure(record: AttemptRecord): string | null {
  if (record.outcome === 'delivered') return null;
  return record.error ?? `HTTP ${record.statusCode}`;
}

/**
 * The statement of `recordAttempts` as a function, so its plan is made once per connection: it
 * took ~0.5 ms a call to plan, more than to run. A kept plan is safe here, unlike the claim's
 * (claim-sql.ts): rows are found by primary key (`STILL_PENDING` keeps the partial indexes out) or
 * by a (chave, next_attempt_at) range that only that index serves whole, and sequential scans are
 * off, so a plan made in a quiet spell still serves a backlog (`backlog-plans.int.ts` makes it so).
 */
export const RECORD_FUNCTION_DDL = `
CREATE OR REPLACE FUNCTION webhook_record_attempts(
  p_ids uuid[], p_of int[], p_tokens uuid[], p_status text[], p_finished timestamptz[], p_next timestamptz[],
  p_last_error text[], p_attempt int[], p_at timestamptz[], p_url text[], p_code int[], p_latency int[], p_error text[],
  p_outcome text[], p_delivery uuid[], p_size int[], p_hand bool[], p_now timestamptz, p_lease_until timestamptz, p_token uuid)
RETURNS TABLE (k bigint, id uuid, chave text, body text, attempt int, due_at timestamptz)
LANGUAGE plpgsql VOLATILE
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
AS $record$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    WITH d AS (
       SELECT i.id, x.* FROM unnest(p_ids, p_of) AS i(id, k)
         JOIN unnest(p_tokens, p_status, p_finished, p_next, p_last_error, p_attempt, p_at,
                     p_url, p_code, p_latency, p_error, p_outcome, p_delivery, p_size, p_hand)
              WITH ORDINALITY AS x(lease_token, status, finished_at, next_at, last_error, attempt, attempted_at,
                                   url, status_code, latency_ms, error, outcome, delivery_id, batch_size, hand_over, k)
           ON x.k = i.k
     ), attempt AS (
       INSERT INTO webhook_outbox_attempts (notification_id, attempt, attempted_at, url, status_code, latency_ms, error, outcome, delivery_id, batch_size)
       SELECT id, attempt, attempted_at, url, status_code, latency_ms, error, outcome, delivery_id, batch_size FROM d
     ), moved AS (
       UPDATE webhook_outbox o
          SET status = d.status, lease_until = NULL, lease_token = NULL, updated_at = d.finished_at,
              next_attempt_at = COALESCE(d.next_at, o.next_attempt_at),
              delivered_at = CASE WHEN d.status = 'delivered' THEN d.finished_at ELSE o.delivered_at END,
              last_error = d.last_error,
              reason = CASE WHEN d.status = 'dead' THEN 'retry schedule exhausted after ' || o.attempt_count || ' attempts' ELSE o.reason END
         FROM d
        WHERE o.id = d.id AND o.lease_token = d.lease_token AND o.status = ${STILL_PENDING}
        RETURNING d.k, d.hand_over, o.chave
     ), wanted AS (
       SELECT chave, count(DISTINCT k)::int AS take FROM moved WHERE hand_over GROUP BY chave
     ), due AS (
       SELECT n.* FROM wanted w
        CROSS JOIN LATERAL (
          SELECT id, chave, body, attempt_count, batch_id FROM webhook_outbox
           WHERE (chave, next_attempt_at) BETWEEN (w.chave, '-infinity') AND (w.chave, p_now) AND status = 'pending'
             AND (lease_until IS NULL OR lease_until <= p_now) AND id <> ALL(p_ids)
           ORDER BY chave, next_attempt_at
           LIMIT w.take
           FOR UPDATE SKIP LOCKED
        ) n
     ), taken AS (
       UPDATE webhook_outbox o
          SET batch_id = o.id, lease_until = p_lease_until, lease_token = p_token, attempt_count = o.attempt_count + 1, updated_at = p_now
         FROM due
        WHERE o.id = due.id AND (due.batch_id IS NULL OR due.batch_id = due.id)
        RETURNING o.id, o.chave, o.body, o.attempt_count, o.next_attempt_at
     )
     SELECT DISTINCT k, NULL::uuid AS id, NULL AS chave, NULL AS body, NULL::int AS attempt, NULL::timestamptz AS due_at FROM moved
     UNION ALL
     SELECT NULL, id, chave, body, attempt_count, next_attempt_at FROM taken
     ORDER BY due_at NULLS FIRST;
END
$record$`;
