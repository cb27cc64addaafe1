import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { inClaimTransaction } from './claim-transaction';

/**
 * One delivery (one POST) handed to one worker until `leaseUntil`: one notification, or a batch
 * of several for the same key. `id` is the `webhook-id`: a lone notification's own id, or the
 * batch's id, kept with the batch's exact body across retries.
 */
export interface ClaimedNotification {
  id: string;
  chave: string;
  body: string;
  /** The notification ids the body carries, in body order. */
  items: string[];
  /** 1-based number of the attempt this claim is for. */
  attempt: number;
  leaseToken: string;
  leaseUntil: Date;
}

/** Per-key limits a worker has learned (adaptive lanes); keys not listed get the defaults. */
export interface LaneLimits {
  keys: string[];
  inFlight: number[];
  batch: number[];
}

export interface ClaimRequest {
  now: Date;
  /** How many deliveries this worker can take now. */
  limit: number;
  /** Deliveries in flight per key (default for keys not in `lanes`). */
  maxInFlightPerKey: number;
  /** Notifications per POST (default for keys not in `lanes`); 1 = no batching. */
  maxBatch?: number;
  lanes?: LaneLimits;
  /** now + timeoutMs + margin: nobody else sends it while our request may still be in flight. */
  leaseUntil: Date;
}

/**
 * Due rows, key by key (oldest due key first), at most `free × batch` rows per key, where a slot
 * is a distinct delivery under an unexpired lease of any worker. Rows are ordered so a batch's
 * members (same schedule, same batch_id) are adjacent. The advisory lock serialises claimers so
 * two cannot both see a free slot; SKIP LOCKED steps over rows a result or resend is writing.
 * Keys are found by skipping through the (chave, next_attempt_at) index one key at a time, and
 * each key's leases and oldest due row by index too: a claim reads a few rows per key, not every
 * pending row (a slow key's backlog of thousands made every claim, for every key, slower). Each
 * key's rows are read in that index's order and only as many as it can take (no sort of its whole
 * due backlog: 90 due rows per key made the claim read and sort 1,436 rows to use 64); members of
 * a batch the window cuts off are completed by `completeBatches`.
 */
export const CANDIDATES_SQL = `
WITH RECURSIVE lanes AS (
  SELECT * FROM unnest($5::text[], $6::int[], $7::int[]) AS l(chave, cap, batch)
), pending_keys AS (
  (SELECT chave FROM webhook_outbox WHERE status = 'pending' ORDER BY chave LIMIT 1)
  UNION ALL
  SELECT (SELECT o.chave FROM webhook_outbox o WHERE o.status = 'pending' AND o.chave > k.chave ORDER BY o.chave LIMIT 1)
    FROM pending_keys k WHERE k.chave IS NOT NULL
), keys AS (
  SELECT k.chave, COALESCE(l.cap, $3) - f.in_flight AS free, COALESCE(l.batch, $4) AS batch, d.oldest
    FROM pending_keys k
    LEFT JOIN lanes l ON l.chave = k.chave
    CROSS JOIN LATERAL (
      SELECT count(DISTINCT o.batch_id) AS in_flight FROM webhook_outbox o
       WHERE o.chave = k.chave AND o.status = 'pending' AND o.lease_until IS NOT NULL AND o.lease_until > $1
    ) f
    CROSS JOIN LATERAL (
      SELECT o.next_attempt_at AS oldest FROM webhook_outbox o
       WHERE o.chave = k.chave AND o.status = 'pending' AND o.next_attempt_at <= $1 AND (o.lease_until IS NULL OR o.lease_until <= $1)
       ORDER BY o.next_attempt_at LIMIT 1
    ) d
   WHERE k.chave IS NOT NULL AND f.in_flight < COALESCE(l.cap, $3)
   ORDER BY d.oldest
   LIMIT $2
)
SELECT k.chave, k.free, k.batch, p.*, b.body AS batch_body, b.item_count FROM keys k
 CROSS JOIN LATERAL (
   SELECT n.id, n.batch_id, n.body, n.attempt_count, n.next_attempt_at
     FROM webhook_outbox n
    WHERE n.chave = k.chave AND n.status = 'pending' AND n.next_attempt_at <= $1
      AND (n.lease_until IS NULL OR n.lease_until <= $1)
    ORDER BY n.next_attempt_at
    LIMIT k.free * k.batch
    FOR UPDATE OF n SKIP LOCKED
 ) p
 LEFT JOIN webhook_batch b ON b.id = p.batch_id
 ORDER BY p.next_attempt_at, p.batch_id NULLS LAST, p.id`;

interface Row {
  chave: string;
  free: number;
  batch: number;
  id: string;
  batch_id: string | null;
  body: string;
  attempt_count: number;
  batch_body: string | null;
  item_count: number | null;
}

interface Draft {
  id: string;
  chave: string;
  rows: Row[];
  /** Stored body of an existing multi-item batch; undefined for a new one. */
  body?: string;
  expected: number;
  isNew: boolean;
}

/**
 * Takes due deliveries: existing batches whole (a retry keeps its id and items), and groups
 * notifications not yet sent into new batches of up to the key's batch size, without waiting to
 * fill one. The attempt counter moves at claim time, so an attempt whose worker died
 * mid-request still counts against the schedule.
 */
export async function claimDue(pool: Pool, request: ClaimRequest): Promise<ClaimedNotification[]> {
  if (request.limit < 1) return [];
  const leaseToken = randomUUID();
  const lanes = request.lanes ?? { keys: [], inFlight: [], batch: [] };
  return inClaimTransaction(pool, async (client) => {
    const { rows } = await client.query<Row>(CANDIDATES_SQL, [request.now, request.limit, request.maxInFlightPerKey, request.maxBatch ?? 1, lanes.keys, lanes.inFlight, lanes.batch]);
    const drafts = group(rows, request.limit);
    await completeBatches(client, drafts, request.now);
    const ready = drafts.filter((d) => d.rows.length === d.expected);
    if (ready.length === 0) return [];
    const batches = ready.filter((d) => d.isNew && d.rows.length > 1);
    for (const d of ready) d.body ??= d.rows.length === 1 && d.id === d.rows[0].id ? d.rows[0].body : composeBody(d.rows.map((r) => r.body));
    if (batches.length > 0) {
      await client.query(
        `INSERT INTO webhook_batch (id, chave, body, item_count, created_at) SELECT u.*, $5::timestamptz FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[]) AS u`,
        [batches.map((d) => d.id), batches.map((d) => d.chave), batches.map((d) => d.body), batches.map((d) => d.rows.length), request.now],
      );
    }
    const members = ready.flatMap((d) => d.rows.map((r) => [r.id, d.id]));
    await client.query(
      `UPDATE webhook_outbox o
          SET batch_id = u.batch_id, lease_until = $3, lease_token = $4, attempt_count = o.attempt_count + 1, updated_at = $5
         FROM unnest($1::uuid[], $2::uuid[]) AS u(id, batch_id)
        WHERE o.id = u.id`,
      [members.map((m) => m[0]), members.map((m) => m[1]), request.leaseUntil, leaseToken, request.now],
    );
    return ready.map((d) => ({ id: d.id, chave: d.chave, body: d.body!, items: d.rows.map((r) => r.id), attempt: d.rows[0].attempt_count + 1, leaseToken, leaseUntil: request.leaseUntil }));
  });
}

/** Splits the candidate rows into deliveries: at most `free` per key and `limit` in all. */
function group(rows: Row[], limit: number): Draft[] {
  const drafts: Draft[] = [];
  const perKey = new Map<string, { count: number; open?: Draft; byBatch: Map<string, Draft> }>();
  for (const row of rows) {
    let key = perKey.get(row.chave);
    if (!key) perKey.set(row.chave, (key = { count: 0, byBatch: new Map() }));
    const room = key.count < row.free && drafts.length < limit;
    const start = (draft: Draft) => {
      drafts.push(draft);
      key!.count += 1;
      return draft;
    };
    if (row.batch_id) {
      const existing = key.byBatch.get(row.batch_id);
      if (existing) existing.rows.push(row);
      else if (room) {
        const single = row.batch_id === row.id;
        key.byBatch.set(row.batch_id, start({ id: row.batch_id, chave: row.chave, rows: [row], body: single ? row.body : (row.batch_body ?? undefined), expected: single ? 1 : (row.item_count ?? 1), isNew: false }));
      }
    } else if (row.attempt_count > 0) {
      // Unbatched yet already attempted (before batching existed): it goes alone under its id.
      if (room) start({ id: row.id, chave: row.chave, rows: [row], expected: 1, isNew: true });
    } else if (key.open && key.open.rows.length < row.batch) {
      key.open.rows.push(row);
      key.open.expected += 1;
    } else if (room) {
      key.open = start({ id: randomUUID(), chave: row.chave, rows: [row], expected: 1, isNew: true });
    }
  }
  // A lone new notification goes under its own id, exactly as without batching.
  for (const d of drafts) if (d.isNew && d.rows.length === 1) d.id = d.rows[0].id;
  return drafts;
}

/** An existing batch cut off by the row window is completed, or left for a later claim. */
async function completeBatches(client: PoolClient, drafts: Draft[], now: Date): Promise<void> {
  for (const d of drafts) {
    if (d.isNew || d.rows.length >= d.expected) continue;
    const have = new Set(d.rows.map((r) => r.id));
    const { rows } = await client.query<Row>(
      `SELECT id, batch_id, body, attempt_count FROM webhook_outbox
        WHERE batch_id = $1 AND status = 'pending' AND next_attempt_at <= $2 AND (lease_until IS NULL OR lease_until <= $2)
        ORDER BY id FOR UPDATE SKIP LOCKED`,
      [d.id, now],
    );
    for (const r of rows) if (!have.has(r.id)) d.rows.push(r);
  }
}

/** `{"pix":[a,b,...]}` from the rows' own `{"pix":[x]}` bodies, items in claim order. */
export function composeBody(bodies: string[]): string {
  return JSON.stringify({ pix: bodies.map((b) => (JSON.parse(b) as { pix: unknown[] }).pix[0]) });
}
