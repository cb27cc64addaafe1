import { STILL_PENDING } from './by-id-sql';

/**
 * The statement of `recordAttempts` as a function, so its plan is made once per connection: it
 * took ~0.5 ms a call to plan, more than to run. A kept plan is safe here, unlike the claim's
 * (claim-sql.ts): rows are found by primary key (`STILL_PENDING` keeps the partial indexes out) or
 * by a (chave, next_attempt_at) range that only that index serves whole, and sequential scans are
 * off, so a plan made in a quiet spell still serves a backlog (`backlog-plans.int.ts` makes it so).
 */
export const RECORD_FUNCTION_DDL = `
-- The handover's lease owner (lease-owner.ts) came last, with a default, for the reason given at
-- webhook_claim_due: the previous release's calls reach this one function.
DROP FUNCTION IF EXISTS webhook_record_attempts(uuid[], int[], uuid[], text[], timestamptz[], timestamptz[], text[], int[], timestamptz[], text[], int[], int[], text[], text[], uuid[], int[], bool[], timestamptz, timestamptz, uuid);
CREATE OR REPLACE FUNCTION webhook_record_attempts(
  p_ids uuid[], p_of int[], p_tokens uuid[], p_status text[], p_finished timestamptz[], p_next timestamptz[],
  p_last_error text[], p_attempt int[], p_at timestamptz[], p_url text[], p_code int[], p_latency int[], p_error text[],
  p_outcome text[], p_delivery uuid[], p_size int[], p_hand bool[], p_now timestamptz, p_lease_until timestamptz, p_token uuid,
  p_owner int DEFAULT NULL)
RETURNS TABLE (k bigint, id uuid, chave text, body text, attempt int, due_at timestamptz, correlation_id text)
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
          SELECT id, chave, body, attempt_count, batch_id, correlation_id FROM webhook_outbox
           WHERE (chave, next_attempt_at) BETWEEN (w.chave, '-infinity') AND (w.chave, p_now) AND status = 'pending'
             AND (lease_until IS NULL OR lease_until <= p_now) AND id <> ALL(p_ids)
           ORDER BY chave, next_attempt_at
           LIMIT w.take
           FOR UPDATE SKIP LOCKED
        ) n
     ), taken AS (
       UPDATE webhook_outbox o
          SET batch_id = o.id, lease_until = p_lease_until, lease_token = p_token, lease_owner = p_owner, attempt_count = o.attempt_count + 1, updated_at = p_now
         FROM due
        WHERE o.id = due.id AND (due.batch_id IS NULL OR due.batch_id = due.id)
        RETURNING o.id, o.chave, o.body, o.attempt_count, o.next_attempt_at, o.correlation_id
     )
     SELECT DISTINCT k, NULL::uuid AS id, NULL AS chave, NULL AS body, NULL::int AS attempt, NULL::timestamptz AS due_at, NULL::text AS correlation_id FROM moved
     UNION ALL
     SELECT NULL, id, chave, body, attempt_count, next_attempt_at, correlation_id FROM taken
     ORDER BY due_at NULLS FIRST;
END
$record$`;
