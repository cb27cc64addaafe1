import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { composeBody, type ClaimedNotification } from './claim';
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
 * Writes the attempt (one log row per notification the POST carried) and the status transition
 * of the whole delivery in one transaction. The transition only applies while we still hold the
 * lease (same token, still pending): if the lease ran out and another worker took over, or
 * someone resent it meanwhile, our late result must not override theirs; the attempt is still
 * logged because the request did happen. Returns whether it applied.
 */
export async function recordAttempt(pool: Pool, claim: ClaimedNotification, record: AttemptRecord): Promise<boolean> {
  // One statement (atomic without BEGIN/COMMIT): one round trip per delivery instead of four.
  const status = record.outcome === 'retry' ? 'pending' : record.outcome;
  const { rows } = await pool.query<{ applied: string }>(
    `WITH attempt AS (
       INSERT INTO webhook_outbox_attempts (notification_id, attempt, attempted_at, url, status_code, latency_ms, error, outcome, delivery_id, batch_size)
       SELECT n, $7, $8, $9, $10, $11, $12, $13, $14, $15 FROM unnest($1::uuid[]) AS n
     ), moved AS (
       UPDATE webhook_outbox
          SET status = $3, lease_until = NULL, lease_token = NULL, updated_at = $4,
              next_attempt_at = COALESCE($5, next_attempt_at),
              delivered_at = CASE WHEN $3 = 'delivered' THEN $4 ELSE delivered_at END,
              last_error = $6,
              reason = CASE WHEN $3 = 'dead' THEN 'retry schedule exhausted after ' || attempt_count || ' attempts' ELSE reason END
        WHERE id = ANY($1::uuid[]) AND lease_token = $2 AND status = 'pending'
        RETURNING 1
     )
     SELECT count(*) AS applied FROM moved`,
    [
      claim.items,
      claim.leaseToken,
      status,
      record.finishedAt,
      record.nextAttemptAt ?? null,
      describeFailure(record),
      claim.attempt,
      record.at,
      record.url,
      record.statusCode,
      Math.round(record.latencyMs),
      record.error,
      record.outcome,
      claim.id,
      claim.items.length,
    ],
  );
  return Number(rows[0].applied) > 0;
}

/**
 * A receiver refused the batch as too large (413): the attempt is logged, and the batch becomes
 * two halves with ids of their own, due at once; the split does not use up a scheduled attempt.
 */
export async function recordSplit(pool: Pool, claim: ClaimedNotification, record: AttemptRecord): Promise<boolean> {
  return inTransactionOn(pool, async (client) => {
    await logAttempt(client, claim, record);
    const { rows } = await client.query<{ id: string; body: string }>(
      `SELECT id, body FROM webhook_outbox WHERE id = ANY($1::uuid[]) AND lease_token = $2 AND status = 'pending' FOR UPDATE`,
      [claim.items, claim.leaseToken],
    );
    if (rows.length !== claim.items.length) return false;
    const byId = new Map(rows.map((r) => [r.id, r.body]));
    const half = Math.ceil(claim.items.length / 2);
    for (const part of [claim.items.slice(0, half), claim.items.slice(half)]) {
      const batchId = part.length === 1 ? part[0] : randomUUID();
      if (part.length > 1) {
        await client.query(`INSERT INTO webhook_batch (id, chave, body, item_count, created_at) VALUES ($1, $2, $3, $4, $5)`, [
          batchId,
          claim.chave,
          composeBody(part.map((id) => byId.get(id)!)),
          part.length,
          record.finishedAt,
        ]);
      }
      await client.query(
        `UPDATE webhook_outbox
            SET batch_id = $2, lease_until = NULL, lease_token = NULL, updated_at = $3, next_attempt_at = $3,
                attempt_count = attempt_count - 1, last_error = $4
          WHERE id = ANY($1::uuid[])`,
        [part, batchId, record.finishedAt, describeFailure(record)],
      );
    }
    return true;
  });
}

/** Closes a delivery whose key has no webhook any more: nothing is sent. */
export async function recordCancelled(pool: Pool, claim: ClaimedNotification, reason: string, now: Date): Promise<boolean> {
  const result = await pool.query(
    `UPDATE webhook_outbox
        SET status = 'cancelled', reason = $3, lease_until = NULL, lease_token = NULL, updated_at = $4,
            attempt_count = attempt_count - 1
      WHERE id = ANY($1::uuid[]) AND lease_token = $2 AND status = 'pending'`,
    [claim.items, claim.leaseToken, reason, now],
  );
  return (result.rowCount ?? 0) > 0;
}

async function logAttempt(client: PoolClient, claim: ClaimedNotification, record: AttemptRecord): Promise<void> {
  await client.query(
    `INSERT INTO webhook_outbox_attempts (notification_id, attempt, attempted_at, url, status_code, latency_ms, error, outcome, delivery_id, batch_size)
     SELECT n, $2, $3, $4, $5, $6, $7, $8, $9, $10 FROM unnest($1::uuid[]) AS n`,
    [claim.items, claim.attempt, record.at, record.url, record.statusCode, Math.round(record.latencyMs), record.error, record.outcome, claim.id, claim.items.length],
  );
}

function describeFailure(record: AttemptRecord): string | null {
  if (record.outcome === 'delivered') return null;
  return record.error ?? `HTTP ${record.statusCode}`;
}
