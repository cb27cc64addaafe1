/** Serialises claims so the per-key in-flight cap holds across workers. */
const CLAIM_LOCK_ID = 727_102;

/**
 * Due rows, key by key (oldest due key first), at most `free × batch` rows per key, where a slot
 * is a distinct delivery under an unexpired lease of any worker. Rows are ordered so a batch's
 * members (same schedule, same batch_id) are adjacent; SKIP LOCKED steps over rows a result or
 * resend is writing. The keys come from `webhook_due_keys` (those whose `due_at` has come, by
 * index): keys waiting between retries cost a claim nothing (it walked every pending key, ~4
 * buffer reads each, so 20,000 failing receivers made every claim take 70 ms). Each key's leases
 * and oldest due row are read by index: a few rows per key, not every pending row (a slow key's
 * backlog of thousands made every claim, for every key, slower). Each key's rows are read in that
 * index's order and only as many as it can take (no sort of its whole due backlog); members of a
 * batch the window cuts off are completed below. A key's rows are selected as a range of that
 * index, `(chave, next_attempt_at) BETWEEN (key, -infinity) AND (key, now)`: written as `chave =
 * key AND next_attempt_at <= now`, the planner walked the (next_attempt_at) index instead and
 * filtered, so with a slow key's 2,000 due rows ahead every other key's claim stepped over all of
 * them (EXPLAIN ANALYZE: 2 × 2,000 rows removed by filter, 1.7 ms; now none, 1.0 ms).
 */
const DUE_KEYS = `
lanes AS (
  SELECT * FROM unnest(p_keys, p_caps, p_batches) AS l(chave, cap, batch)
), keys AS (
  SELECT k.chave, COALESCE(l.cap, p_cap) - f.in_flight AS free, COALESCE(l.batch, p_batch) AS batch, d.oldest
    FROM webhook_due_keys k
    LEFT JOIN lanes l ON l.chave = k.chave
    CROSS JOIN LATERAL (
      SELECT count(DISTINCT o.batch_id) AS in_flight FROM webhook_outbox o
       WHERE o.chave = k.chave AND o.status = 'pending' AND o.lease_until IS NOT NULL AND o.lease_until > p_now
    ) f
    CROSS JOIN LATERAL (
      SELECT o.next_attempt_at AS oldest FROM webhook_outbox o
       WHERE (o.chave, o.next_attempt_at) BETWEEN (k.chave, '-infinity') AND (k.chave, p_now) AND o.status = 'pending' AND (o.lease_until IS NULL OR o.lease_until <= p_now)
       ORDER BY o.chave, o.next_attempt_at LIMIT 1
    ) d
   WHERE k.due_at <= p_now AND f.in_flight < COALESCE(l.cap, p_cap)
   ORDER BY d.oldest
   LIMIT p_limit
)`;

const CANDIDATES = `
cand AS (
  SELECT k.chave, k.free, k.batch, p.id, p.batch_id, p.body, p.attempt_count, p.correlation_id, b.body AS batch_body, b.item_count,
         row_number() OVER (ORDER BY p.next_attempt_at, p.batch_id NULLS LAST, p.id) AS o
    FROM keys k
   CROSS JOIN LATERAL (
     SELECT n.id, n.batch_id, n.body, n.attempt_count, n.correlation_id, n.next_attempt_at
       FROM webhook_outbox n
      WHERE (n.chave, n.next_attempt_at) BETWEEN (k.chave, '-infinity') AND (k.chave, p_now) AND n.status = 'pending'
        AND (n.lease_until IS NULL OR n.lease_until <= p_now)
      ORDER BY n.chave, n.next_attempt_at
      LIMIT k.free * k.batch
      FOR UPDATE OF n SKIP LOCKED
   ) p
   LEFT JOIN webhook_batch b ON b.id = p.batch_id
)`;

/**
 * Candidates → deliveries, in the order each delivery's first row comes: an existing batch goes
 * whole under its id (a retry keeps its id and items); a row attempted before batching existed
 * goes alone; rows never sent are packed, in order, into new batches of the key's batch size,
 * without waiting to fill one. A key starts at most `free` deliveries, a claim at most `limit`.
 * An existing batch the row window cut short gets its other due members; one that still lacks
 * some (leased or written elsewhere) waits for a later claim.
 */
const DELIVERIES = `
tagged AS (
  SELECT c.*,
    CASE WHEN c.batch_id IS NOT NULL THEN 'b' WHEN c.attempt_count > 0 THEN 'a' ELSE 'n' END AS kind,
    CASE WHEN c.batch_id IS NOT NULL THEN c.batch_id WHEN c.attempt_count > 0 THEN c.id END AS ref,
    CASE WHEN c.batch_id IS NULL AND c.attempt_count = 0
         THEN (row_number() OVER (PARTITION BY c.chave, (c.batch_id IS NULL AND c.attempt_count = 0) ORDER BY c.o) - 1) / c.batch
         ELSE 0 END AS chunk
  FROM cand c
), started AS (
  SELECT d.* FROM (
    SELECT d.*, row_number() OVER (PARTITION BY d.chave ORDER BY d.first_o) AS key_rank
      FROM (SELECT t.chave, t.kind, t.ref, t.chunk, min(t.o) AS first_o, min(t.free) AS free,
                   min(t.item_count) AS item_count, min(t.batch_body) AS batch_body
              FROM tagged t GROUP BY t.chave, t.kind, t.ref, t.chunk) d
  ) d
  WHERE d.key_rank <= d.free
  ORDER BY d.first_o
  LIMIT p_limit
), extra AS (
  SELECT x.id, x.batch_id, x.body, x.attempt_count, x.correlation_id FROM webhook_outbox x
   WHERE x.batch_id IN (SELECT s.ref FROM started s WHERE s.kind = 'b')
     AND x.status = 'pending' AND x.next_attempt_at <= p_now AND (x.lease_until IS NULL OR x.lease_until <= p_now)
     AND x.id NOT IN (SELECT t.id FROM tagged t)
   FOR UPDATE SKIP LOCKED
), members AS (
  SELECT s.first_o, t.id, t.body, t.attempt_count, t.correlation_id, t.o FROM started s
    JOIN tagged t ON t.chave = s.chave AND t.kind = s.kind AND t.chunk = s.chunk AND t.ref IS NOT DISTINCT FROM s.ref
  UNION ALL
  -- After the window's rows, in id order (as the claim always added them).
  SELECT s.first_o, x.id, x.body, x.attempt_count, x.correlation_id, 1000000000 + row_number() OVER (ORDER BY x.id)
    FROM started s JOIN extra x ON x.batch_id = s.ref AND s.kind = 'b'
), ready AS MATERIALIZED (
  SELECT s.*, m.items, m.bodies, m.attempts, m.cids,
    CASE WHEN s.kind <> 'n' THEN s.ref WHEN cardinality(m.items) = 1 THEN m.items[1] ELSE gen_random_uuid() END AS did
    FROM started s
    JOIN (SELECT first_o, array_agg(id ORDER BY o) AS items, array_agg(body ORDER BY o) AS bodies, array_agg(attempt_count ORDER BY o) AS attempts,
                 array_agg(correlation_id ORDER BY o) AS cids
            FROM members GROUP BY first_o) m ON m.first_o = s.first_o
   WHERE s.kind <> 'b' OR cardinality(m.items) = COALESCE(s.item_count, 1)
), composed AS (
  SELECT r.*,
    CASE WHEN cardinality(r.items) = 1 AND r.did = r.items[1] THEN r.bodies[1]
         WHEN r.batch_body IS NOT NULL THEN r.batch_body
         ELSE '{"pix":[' || (SELECT string_agg(substr(b, 9, length(b) - 10), ',' ORDER BY i) FROM unnest(r.bodies) WITH ORDINALITY AS u(b, i)) || ']}'
    END AS delivery_body
    FROM ready r
), new_batches AS (
  INSERT INTO webhook_batch (id, chave, body, item_count, created_at)
  SELECT c.did, c.chave, c.delivery_body, cardinality(c.items), p_now FROM composed c WHERE c.kind <> 'b' AND cardinality(c.items) > 1
), leased AS (
  UPDATE webhook_outbox o
     SET batch_id = c.did, lease_until = p_lease_until, lease_token = p_token, lease_owner = p_owner, attempt_count = o.attempt_count + 1, updated_at = p_now
    FROM composed c CROSS JOIN LATERAL unnest(c.items) AS it(id)
   WHERE o.id = it.id
)`;

/**
 * After the claim (its leases visible): each key whose `due_at` has come and that has nothing due
 * now gets its real next schedule, or leaves the table when nothing is pending. Read first, then
 * changed only where the version is still the one read and the row is free (SKIP LOCKED): a key
 * stored or resent meanwhile moved its version, so it is never dropped from under a new row, and
 * a claim never waits for an intake that is itself waiting for the claim lock. A key with rows in
 * flight keeps its `due_at` (their schedule has passed): a lease that ends makes them due again.
 * The key's first row is a range of the (chave, next_attempt_at) index, for the reason above.
 */
const SETTLE_DUE_KEYS = `
  SELECT array_agg(q.chave), array_agg(q.version), array_agg(x.next_at) INTO v_keys, v_versions, v_next
    FROM webhook_due_keys q
    LEFT JOIN LATERAL (
      SELECT o.next_attempt_at AS next_at FROM webhook_outbox o
       WHERE (o.chave, o.next_attempt_at) BETWEEN (q.chave, '-infinity') AND (q.chave, 'infinity') AND o.status = 'pending'
       ORDER BY o.chave, o.next_attempt_at LIMIT 1
    ) x ON true
   WHERE q.due_at <= p_now AND (x.next_at IS NULL OR x.next_at > p_now);
  IF v_keys IS NOT NULL THEN
    WITH seen AS (
      SELECT * FROM unnest(v_keys, v_versions, v_next) AS s(chave, version, next_at)
    ), free AS (
      SELECT q.chave, s.next_at FROM webhook_due_keys q JOIN seen s ON s.chave = q.chave AND s.version = q.version
       ORDER BY q.chave FOR UPDATE OF q SKIP LOCKED
    ), dropped AS (
      DELETE FROM webhook_due_keys q USING free f WHERE q.chave = f.chave AND f.next_at IS NULL
    )
    UPDATE webhook_due_keys q SET due_at = f.next_at, version = q.version + 1 FROM free f WHERE q.chave = f.chave AND f.next_at IS NOT NULL;
  END IF;`;

/**
 * A claim in ONE round trip: the function takes the claim lock (claimers take turns, so two
 * cannot both see a free slot), and its query then runs on a snapshot taken after the lock, so
 * it sees every lease the claimer before it committed. Each lease names the worker that holds it
 * (`p_owner`, lease-owner.ts), so the leases of a worker that died end as soon as its session does. The transaction is the call's own. The
 * attempt counter moves at claim time, so an attempt whose worker died mid-request still counts
 * against the schedule. Installed by a migration named after its text (schema.ts). It is
 * planned at every call, as the statements it replaced were: a generic plan, made once per
 * connection while the outbox was still small, kept its small-table choices as the outbox grew,
 * and a fast key's closed loop after a burst ran ~25% slower (458-471 against 597-652
 * deliveries/s, back to back).
 */
export const CLAIM_FUNCTION_DDL = `
-- The lease's owner (lease-owner.ts) came last, with a default: the previous release's calls,
-- without it, reach this one function (two overloads would make them ambiguous).
DROP FUNCTION IF EXISTS webhook_claim_due(timestamptz, int, int, int, text[], int[], int[], timestamptz, uuid);
CREATE OR REPLACE FUNCTION webhook_claim_due(
  p_now timestamptz, p_limit int, p_cap int, p_batch int, p_keys text[], p_caps int[], p_batches int[],
  p_lease_until timestamptz, p_token uuid, p_owner int DEFAULT NULL)
RETURNS TABLE (delivery_id uuid, chave text, body text, items uuid[], attempt int, correlation_ids text[])
LANGUAGE plpgsql VOLATILE
SET plan_cache_mode = force_custom_plan
AS $claim$
#variable_conflict use_column
DECLARE
  v_keys text[];
  v_versions bigint[];
  v_next timestamptz[];
BEGIN
  PERFORM pg_advisory_xact_lock(${CLAIM_LOCK_ID});
  -- Planning the claim's query costs ~1 ms whatever it finds, and most claims of a busy worker
  -- (woken by every POST that ends) find nothing: slot handover took the key's next Pix. Those
  -- stop after asking whether any key can take a delivery, a query a tenth of the size.
  IF EXISTS (WITH ${DUE_KEYS} SELECT 1 FROM keys) THEN
    RETURN QUERY
    WITH ${DUE_KEYS}, ${CANDIDATES}, ${DELIVERIES}
    SELECT c.did, c.chave, c.delivery_body, c.items, c.attempts[1] + 1, c.cids FROM composed c ORDER BY c.first_o;
  END IF;
  ${SETTLE_DUE_KEYS}
END
$claim$`;
