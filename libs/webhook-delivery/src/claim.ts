import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { CLAIM_LOCK_ID } from './schema';
import { inTransaction as inTransactionOn } from '@pix/event-store';

/** A notification handed to one worker until `leaseUntil`. */
export interface ClaimedNotification {
  id: string;
  chave: string;
  body: string;
  /** 1-based number of the attempt this claim is for. */
  attempt: number;
  leaseToken: string;
  leaseUntil: Date;
}

export interface ClaimRequest {
  now: Date;
  /** How many notifications this worker can take now. */
  limit: number;
  maxInFlightPerKey: number;
  /** now + timeoutMs + margin: nobody else sends it while our request may still be in flight. */
  leaseUntil: Date;
}

/**
 * Picks due notifications key by key (oldest due key first) and takes at most the free per-key
 * slots, where a slot is held by any unexpired lease of any worker. The advisory lock serialises
 * claimers so two of them cannot both see a free slot; SKIP LOCKED steps over rows a result or
 * resend transaction is writing. The attempt counter moves at claim time, so an attempt whose
 * worker died mid-request still counts against the schedule.
 */
const CLAIM_SQL = `
WITH keys AS (
  SELECT chave, $3::int - count(*) FILTER (WHERE lease_until > $1) AS free
    FROM webhook_outbox
   WHERE status = 'pending' AND (next_attempt_at <= $1 OR lease_until > $1)
   GROUP BY chave
  HAVING count(*) FILTER (WHERE lease_until > $1) < $3
     AND bool_or(next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1))
   ORDER BY min(next_attempt_at) FILTER (WHERE lease_until IS NULL OR lease_until <= $1)
   LIMIT $2
), picked AS (
  SELECT p.id, p.next_attempt_at
    FROM keys k
   CROSS JOIN LATERAL (
     SELECT n.id, n.next_attempt_at FROM webhook_outbox n
      WHERE n.chave = k.chave AND n.status = 'pending' AND n.next_attempt_at <= $1
        AND (n.lease_until IS NULL OR n.lease_until <= $1)
      ORDER BY n.next_attempt_at, n.id
      LIMIT k.free
      FOR UPDATE SKIP LOCKED
   ) p
   ORDER BY p.next_attempt_at
   LIMIT $2
)
UPDATE webhook_outbox o
   SET lease_until = $4, lease_token = $5, attempt_count = o.attempt_count + 1, updated_at = $1
  FROM picked
 WHERE o.id = picked.id
RETURNING o.id, o.chave, o.body, o.attempt_count`;

export async function claimDue(pool: Pool, request: ClaimRequest): Promise<ClaimedNotification[]> {
  if (request.limit < 1) return [];
  const leaseToken = randomUUID();
  const rows = await inTransactionOn(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK_ID]);
    const result = await client.query(CLAIM_SQL, [request.now, request.limit, request.maxInFlightPerKey, request.leaseUntil, leaseToken]);
    return result.rows;
  });
  return rows.map((r) => ({ id: r.id, chave: r.chave, body: r.body, attempt: r.attempt_count, leaseToken, leaseUntil: request.leaseUntil }));
}
