import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { composeBody, type ClaimedNotification } from './claim';
import { inTransaction as inTransactionOn } from '@pix/event-store';
import type { AttemptOutcome } from './types';
import { describeFailure } from './record-attempts';
import { STILL_PENDING } from './by-id-sql';
import { urlForRecord } from './log-url';

export interface AttemptRecord {
  at: Date;
  /** The URL POSTed to, whole: the writers keep only what the logs show of it (`urlForRecord`). */
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
 * A receiver refused the batch as too large (413): the attempt is logged, and the batch becomes
 * two halves with ids of their own, due at `nextAttemptAt` (at once without a Retry-After); the
 * split does not use up a scheduled attempt.
 */
export async function recordSplit(pool: Pool, claim: ClaimedNotification, record: AttemptRecord): Promise<boolean> {
  return inTransactionOn(pool, async (client) => {
    await logAttempt(client, claim, record);
    const { rows } = await client.query<{ id: string; body: string }>(
      `SELECT id, body FROM webhook_outbox WHERE id = ANY($1::uuid[]) AND lease_token = $2 AND status = ${STILL_PENDING} FOR UPDATE`,
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
            SET batch_id = $2, lease_until = NULL, lease_token = NULL, updated_at = $3, next_attempt_at = $5,
                attempt_count = attempt_count - 1, last_error = $4
          WHERE id = ANY($1::uuid[])`,
        [part, batchId, record.finishedAt, describeFailure(record), record.nextAttemptAt ?? record.finishedAt],
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
      WHERE id = ANY($1::uuid[]) AND lease_token = $2 AND status = ${STILL_PENDING}`,
    [claim.items, claim.leaseToken, reason, now],
  );
  return (result.rowCount ?? 0) > 0;
}

/**
 * Hands back claimed deliveries never sent (a stopping worker; a webhook lookup that failed):
 * due again at once, or not before `dueAt`, the attempt not counted.
 */
export async function releaseUnsent(pool: Pool, claims: ClaimedNotification[], now: Date, dueAt?: Date): Promise<void> {
  if (claims.length === 0) return;
  await pool.query(
    `UPDATE webhook_outbox o
        SET lease_until = NULL, lease_token = NULL, attempt_count = o.attempt_count - 1, updated_at = $3,
            next_attempt_at = GREATEST(o.next_attempt_at, COALESCE($4, o.next_attempt_at))
       FROM unnest($1::uuid[], $2::uuid[]) AS u(id, token)
      WHERE o.id = u.id AND o.lease_token = u.token AND o.status = ${STILL_PENDING}`,
    [claims.flatMap((c) => c.items), claims.flatMap((c) => c.items.map(() => c.leaseToken)), now, dueAt ?? null],
  );
}

async function logAttempt(client: PoolClient, claim: ClaimedNotification, record: AttemptRecord): Promise<void> {
  await client.query(
    `INSERT INTO webhook_outbox_attempts (notification_id, attempt, attempted_at, url, status_code, latency_ms, error, outcome, delivery_id, batch_size)
     SELECT n, $2, $3, $4, $5, $6, $7, $8, $9, $10 FROM unnest($1::uuid[]) AS n`,
    [claim.items, claim.attempt, record.at, urlForRecord(record.url), record.statusCode, Math.round(record.latencyMs), record.error, record.outcome, claim.id, claim.items.length],
  );
}
