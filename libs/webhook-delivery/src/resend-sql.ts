import { STILL_PENDING } from './by-id-sql';
import { lowerDueKeys } from './due-keys-sql';

/**
 * A resend in one statement, on the notifications `where` picks (`$1` is now):
 * - delivered, dead or cancelled ones are pending again, each a delivery of its own under its own
 *   id (ADR 15), with a fresh schedule and attempts numbered from 1 again: the new cycle is
 *   written to webhook_outbox_resends, so the attempt log shows which resend each attempt follows;
 * - pending ones parked for later (a retry's schedule, a receiver's Retry-After of up to 24 h) are
 *   due now, keeping their id, attempt count and batch. A member of a multi-item batch brings the
 *   other members along: they share one schedule and a claim takes a batch whole or not at all
 *   (claim-sql.ts), so one member due alone would wait for the rest. A delivery under a live lease
 *   (in flight) is left as it is: its result decides what comes next.
 * Both lower their keys' `due_at`, or the next claim would not look at the key until its old
 * schedule. Rows found by id test the status against STILL_PENDING (by-id-sql.ts); a batch's
 * members are found through the pending-only batch index. Answers how many rows it changed.
 */
export const resendSql = (where: string) => `
WITH picked AS MATERIALIZED (
  SELECT o.id, o.status, o.batch_id FROM webhook_outbox o WHERE ${where}
), resent AS (
  UPDATE webhook_outbox o
     SET status = 'pending', batch_id = o.id, attempt_count = 0, next_attempt_at = $1, pending_since = $1, updated_at = $1,
         lease_until = NULL, lease_token = NULL, delivered_at = NULL, reason = NULL
    FROM picked p
   WHERE o.id = p.id AND p.status IN ('delivered', 'dead', 'cancelled') AND o.status IN ('delivered', 'dead', 'cancelled')
  RETURNING o.id, o.chave, o.next_attempt_at
), cycles AS (
  INSERT INTO webhook_outbox_resends (notification_id, after_seq, resent_at)
  SELECT r.id, coalesce((SELECT max(a.seq) FROM webhook_outbox_attempts a WHERE a.notification_id = r.id), 0), $1 FROM resent r
), parked AS (
  SELECT p.id FROM picked p WHERE p.status = 'pending'
  UNION
  SELECT m.id FROM webhook_outbox m
   WHERE m.batch_id IN (SELECT p.batch_id FROM picked p WHERE p.status = 'pending') AND m.status = 'pending'
), released AS (
  UPDATE webhook_outbox o SET next_attempt_at = $1, updated_at = $1
    FROM parked k
   WHERE o.id = k.id AND o.status = ${STILL_PENDING} AND o.next_attempt_at > $1 AND (o.lease_until IS NULL OR o.lease_until <= $1)
     AND NOT EXISTS (SELECT 1 FROM webhook_outbox l WHERE l.batch_id = o.batch_id AND l.status = 'pending' AND l.lease_until > $1)
  RETURNING o.chave, o.next_attempt_at
), changed AS (
  SELECT chave, next_attempt_at FROM resent UNION ALL SELECT chave, next_attempt_at FROM released
), keyed AS (${lowerDueKeys('changed')}
)
SELECT (SELECT count(*) FROM resent)::int + (SELECT count(*) FROM released)::int AS n`;
