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

/** One finished delivery and what its POST did. */
export interface FinishedDelivery {
  claim: ClaimedNotification;
  record: AttemptRecord;
}

/**
 * Writes the attempts (one log row per notification each POST carried) and the status transition
 * of each delivery, for any number of deliveries, in one statement (atomic without BEGIN/COMMIT).
 * A transition only applies while its worker still holds the lease (same token, still pending):
 * if the lease ran out and another worker took over, or someone resent it meanwhile, a late
 * result must not override theirs; the attempt is still logged because the request did happen.
 * Returns, per delivery, whether it applied.
 */
export async function recordAttempts(pool: Pool, finished: FinishedDelivery[]): Promise<boolean[]> {
  if (finished.length === 0) return [];
  const ids: string[] = [];
  const of: number[] = [];
  finished.forEach((f, k) => {
    for (const id of f.claim.items) {
      ids.push(id);
      of.push(k);
    }
  });
  const column = <T>(pick: (f: FinishedDelivery) => T) => finished.map(pick);
  const { rows } = await pool.query<{ k: number }>(
    `WITH d AS (
       SELECT i.id, x.* FROM unnest($1::uuid[], $2::int[]) AS i(id, k)
         JOIN unnest($3::uuid[], $4::text[], $5::timestamptz[], $6::timestamptz[], $7::text[], $8::int[], $9::timestamptz[],
                     $10::text[], $11::int[], $12::int[], $13::text[], $14::text[], $15::uuid[], $16::int[])
              WITH ORDINALITY AS x(lease_token, status, finished_at, next_at, last_error, attempt, attempted_at,
                                   url, status_code, latency_ms, error, outcome, delivery_id, batch_size, k)
           ON x.k = i.k + 1
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
        WHERE o.id = d.id AND o.lease_token = d.lease_token AND o.status = 'pending'
        RETURNING d.k
     )
     SELECT DISTINCT k - 1 AS k FROM moved`,
    [
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
    ],
  );
  const applied = new Set(rows.map((r) => Number(r.k)));
  return finished.map((_, k) => applied.has(k));
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

/** Hands back claimed deliveries never sent (a stopping worker): due again at once, the attempt not counted. */
export async function releaseUnsent(pool: Pool, claims: ClaimedNotification[], now: Date): Promise<void> {
  if (claims.length === 0) return;
  await pool.query(
    `UPDATE webhook_outbox o
        SET lease_until = NULL, lease_token = NULL, attempt_count = o.attempt_count - 1, updated_at = $3
       FROM unnest($1::uuid[], $2::uuid[]) AS u(id, token)
      WHERE o.id = u.id AND o.lease_token = u.token AND o.status = 'pending'`,
    [claims.flatMap((c) => c.items), claims.flatMap((c) => c.items.map(() => c.leaseToken)), now],
  );
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
