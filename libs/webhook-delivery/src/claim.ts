import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';

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
  /** Each item's correlation id (ADR 17; null where its cash-in named none), in body order. */
  correlationIds: (string | null)[];
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
  /** The claiming worker's owner number (lease-owner.ts); null or absent: the lease ends by time alone. */
  owner?: number | null;
}

/**
 * Takes due deliveries in one round trip (`webhook_claim_due`, claim-sql.ts): existing batches
 * whole (a retry keeps its id and items), and notifications not yet sent grouped into new batches
 * of up to the key's batch size, without waiting to fill one. Claims were a transaction of four
 * round trips; under load a notification waited for one claim to end and its own to run.
 */
export async function claimDue(pool: Pool, request: ClaimRequest): Promise<ClaimedNotification[]> {
  if (request.limit < 1) return [];
  const leaseToken = randomUUID();
  const { rows } = await pool.query<ClaimedRow>({
    name: 'webhook_claim_due',
    text: 'SELECT delivery_id, chave, body, items, attempt, correlation_ids FROM webhook_claim_due($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)',
    values: claimArgs(request, leaseToken),
  });
  return toClaims(rows, leaseToken, request.leaseUntil);
}

interface ClaimedRow {
  delivery_id: string;
  chave: string;
  body: string;
  items: string[];
  attempt: number;
  correlation_ids?: (string | null)[] | null;
}

/** `webhook_claim_due`'s parameters, in order (`webhook_enqueue` ends with the same ones). */
export function claimArgs(request: ClaimRequest, leaseToken: string): unknown[] {
  const lanes = request.lanes ?? { keys: [], inFlight: [], batch: [] };
  return [request.now, request.limit, request.maxInFlightPerKey, request.maxBatch ?? 1, lanes.keys, lanes.inFlight, lanes.batch, request.leaseUntil, leaseToken, request.owner ?? null];
}

export function toClaims(rows: ClaimedRow[], leaseToken: string, leaseUntil: Date): ClaimedNotification[] {
  return rows.map((r) => ({ id: r.delivery_id, chave: r.chave, body: r.body, items: r.items, attempt: r.attempt, correlationIds: r.correlation_ids ?? [], leaseToken, leaseUntil }));
}

const ITEM_PREFIX = '{"pix":[';
const ITEM_SUFFIX = ']}';

/**
 * `{"pix":[a,b,...]}` from the rows' own `{"pix":[x]}` bodies, items in the order given: the
 * same bytes the claim composes in SQL (each body's item cut out and joined).
 */
export function composeBody(bodies: string[]): string {
  const items = bodies.map((b) => {
    if (!b.startsWith(ITEM_PREFIX) || !b.endsWith(ITEM_SUFFIX)) throw new Error(`not a one-item webhook body: ${b.slice(0, 40)}`);
    return b.slice(ITEM_PREFIX.length, -ITEM_SUFFIX.length);
  });
  return `${ITEM_PREFIX}${items.join(',')}${ITEM_SUFFIX}`;
}
