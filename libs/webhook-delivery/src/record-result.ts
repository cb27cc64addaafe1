import type { Pool } from 'pg';
import type { ClaimedNotification } from './claim';
import { inTransaction as inTransactionOn } from '@pix/event-store';
import type { AttemptOutcome } from './types';

export interface AttemptRecord {
  at: Date;
  url: string | null;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  outcome: AttemptOutcome;
  /** For `retry`: when the next attempt is due. */
  nextAttemptAt?: Date;
  finishedAt: Date;
}

/**
 * Writes the attempt row and the status transition in one transaction. The transition only
 * applies while we still hold the lease (same token, still pending): if the lease ran out and
 * another worker took over, or someone resent it meanwhile, our late result must not override
 * theirs; the attempt is still logged because the request did happen. Returns whether it applied.
 */
export async function recordAttempt(pool: Pool, claim: ClaimedNotification, record: AttemptRecord): Promise<boolean> {
  return inTransactionOn(pool, async (client) => {
    await client.query(
      `INSERT INTO webhook_outbox_attempts (notification_id, attempt, attempted_at, url, status_code, latency_ms, error, outcome)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [claim.id, claim.attempt, record.at, record.url, record.statusCode, Math.round(record.latencyMs), record.error, record.outcome],
    );
    const status = record.outcome === 'retry' ? 'pending' : record.outcome;
    const result = await client.query(
      `UPDATE webhook_outbox
          SET status = $3, lease_until = NULL, lease_token = NULL, updated_at = $4,
              next_attempt_at = COALESCE($5, next_attempt_at),
              delivered_at = CASE WHEN $3 = 'delivered' THEN $4 ELSE delivered_at END,
              last_error = $6,
              reason = CASE WHEN $3 = 'dead' THEN 'retry schedule exhausted after ' || attempt_count || ' attempts' ELSE reason END
        WHERE id = $1 AND lease_token = $2 AND status = 'pending'`,
      [claim.id, claim.leaseToken, status, record.finishedAt, record.nextAttemptAt ?? null, describeFailure(record)],
    );
    return result.rowCount === 1;
  });
}

/** Closes a notification whose key has no webhook any more: nothing is sent. */
export async function recordCancelled(pool: Pool, claim: ClaimedNotification, reason: string, now: Date): Promise<boolean> {
  const result = await pool.query(
    `UPDATE webhook_outbox
        SET status = 'cancelled', reason = $3, lease_until = NULL, lease_token = NULL, updated_at = $4,
            attempt_count = attempt_count - 1
      WHERE id = $1 AND lease_token = $2 AND status = 'pending'`,
    [claim.id, claim.leaseToken, reason, now],
  );
  return result.rowCount === 1;
}

function describeFailure(record: AttemptRecord): string | null {
  if (record.outcome === 'delivered') return null;
  return record.error ?? `HTTP ${record.statusCode}`;
}
