import { lowerDueKeys } from './due-keys-sql';

/**
 * Stores cash-in notifications, once per endToEndId, then (when it stored any and the caller has
 * free slots) claims due deliveries exactly as `webhook_claim_due` does, in one round trip. Rows
 * get timestamps a microsecond apart, by position, up to `p_now`, so a key's notifications are
 * claimed in the order given.
 * The input is every valid cash-in of the intake batch, in order; a NULL txid marks one not to be
 * notified. Only the first copy of an endToEndId counts, as in settlement (ADR 7): within the
 * batch by position (DISTINCT ON); across batches a skipped first copy is remembered in
 * webhook_intake_skipped (unless the outbox already holds the endToEndId, as when a redelivery
 * finds the webhook gone), and a later notified copy is stored only if none is remembered. The
 * snapshot of one statement does not see its own skipped rows, which it need not: DISTINCT ON
 * leaves one copy per endToEndId. The first row returned carries only `created`; each further row is a claimed
 * delivery. The keys stored are marked due (webhook_due_keys) in the same statement. The claim
 * runs after the insert, in the same transaction, so it sees the new rows;
 * its lock is taken after the insert and held to the commit, right after.
 * `p_cids`: each cash-in's correlation id (ADR 17) or NULL. The version before it (no `p_cids`)
 * is a different overload and stays for instances of the previous release during an upgrade.
 */
export const ENQUEUE_FUNCTION_DDL = `
-- p_owner came last, with a default, for the reason given at webhook_claim_due.
DROP FUNCTION IF EXISTS webhook_enqueue(uuid[], text[], text[], text[], text[], text[], timestamptz, int, int, int, text[], int[], int[], timestamptz, uuid);
CREATE OR REPLACE FUNCTION webhook_enqueue(
  p_ids uuid[], p_e2e text[], p_chaves text[], p_txids text[], p_bodies text[], p_cids text[],
  p_now timestamptz, p_limit int, p_cap int, p_batch int, p_keys text[], p_caps int[], p_batches int[],
  p_lease_until timestamptz, p_token uuid, p_owner int DEFAULT NULL)
RETURNS TABLE (created int, delivery_id uuid, chave text, body text, items uuid[], attempt int, correlation_ids text[])
LANGUAGE plpgsql VOLATILE
AS $enqueue$
#variable_conflict use_column
DECLARE
  n int;
BEGIN
  WITH first AS (
    SELECT DISTINCT ON (u.e2e) u.*, p_now - (cardinality(p_ids) - u.n) * interval '1 microsecond' AS at
      FROM unnest(p_ids, p_e2e, p_chaves, p_txids, p_bodies, p_cids) WITH ORDINALITY AS u(id, e2e, chave, txid, body, cid, n)
     ORDER BY u.e2e, u.n
  ), skipped AS (
    INSERT INTO webhook_intake_skipped (end_to_end_id, seen_at)
    SELECT f.e2e, p_now FROM first f
     WHERE f.txid IS NULL AND NOT EXISTS (SELECT 1 FROM webhook_outbox o WHERE o.end_to_end_id = f.e2e)
    ON CONFLICT DO NOTHING
  ), stored AS (
    INSERT INTO webhook_outbox (id, end_to_end_id, chave, txid, body, status, next_attempt_at, pending_since, created_at, updated_at, correlation_id)
    SELECT t.id, t.e2e, t.chave, t.txid, t.body, 'pending', t.at, t.at, t.at, t.at, t.cid
      FROM first t
     WHERE t.txid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM webhook_intake_skipped s WHERE s.end_to_end_id = t.e2e)
     ORDER BY t.n
    ON CONFLICT DO NOTHING -- no target: concurrent inserts collide on the id (PK) and the endToEndId alike
    RETURNING chave, next_attempt_at
  ), keyed AS (${lowerDueKeys('stored')}
  )
  SELECT count(*) INTO n FROM stored;
  RETURN QUERY SELECT n, NULL::uuid, NULL::text, NULL::text, NULL::uuid[], NULL::int, NULL::text[];
  IF n > 0 AND p_limit > 0 THEN
    RETURN QUERY SELECT NULL::int, c.delivery_id, c.chave, c.body, c.items, c.attempt, c.correlation_ids
      FROM webhook_claim_due(p_now, p_limit, p_cap, p_batch, p_keys, p_caps, p_batches, p_lease_until, p_token, p_owner) c;
  END IF;
END
$enqueue$`;
