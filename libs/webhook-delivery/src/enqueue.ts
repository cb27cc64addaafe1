import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { claimArgs, toClaims, type ClaimedNotification, type ClaimRequest } from './claim';
import { notificationIdFor } from './notification-id';
import { isSkipped, type IntakeItem } from './types';

/**
 * Stores notifications and, in the same round trip, claims what is due (`webhook_enqueue`,
 * enqueue-sql.ts). Skipped items are the batch's cash-ins not notified: they travel with a NULL
 * txid so the statement keeps the first copy of each endToEndId over all of them (ADR 7). The intake used to store, wake the worker, and wait for its next claim: a
 * second round trip, plus a claim already under way when the rows landed (it cannot see them).
 */
export async function enqueueAndClaim(
  db: Pick<Pool | PoolClient, 'query'>,
  inputs: IntakeItem[],
  now: Date,
  claim?: Omit<ClaimRequest, 'now'>,
): Promise<{ created: number; claimed: ClaimedNotification[] }> {
  for (const input of inputs) {
    const required = isSkipped(input) ? { endToEndId: input.endToEndId } : { endToEndId: input.endToEndId, chave: input.chave, txid: input.txid };
    for (const [field, value] of Object.entries(required)) {
      if (typeof value !== 'string' || value === '') throw new Error(`enqueue: ${field} must be a non-empty string`);
    }
  }
  // Repeats (inside the batch or stored before) are left to the statement: it alone knows which copy came first.
  const rows = inputs.map((i) =>
    isSkipped(i) ? { endToEndId: i.endToEndId, chave: null, txid: null, body: null, correlationId: null } : { ...i, body: JSON.stringify({ pix: [i.pix] }), correlationId: i.correlationId ?? null },
  );
  if (rows.length === 0) return { created: 0, claimed: [] };
  const leaseToken = randomUUID();
  const request: ClaimRequest = claim ? { ...claim, now } : { now, limit: 0, maxInFlightPerKey: 1, leaseUntil: now };
  const result = await db.query<{ created: number | null; delivery_id: string; chave: string; body: string; items: string[]; attempt: number; correlation_ids: (string | null)[] }>({
    name: 'webhook_enqueue',
    // The bodies travel as one JSON array, not a text[] literal: node-postgres escapes every quote
    // of every body by regular expression (the intake's largest cost in pg after the socket);
    // JSON.stringify is native, and json_array_elements_text gives back the exact strings.
    text: `SELECT created, delivery_id, chave, body, items, attempt, correlation_ids
             FROM webhook_enqueue($1, $2, $3, $4, ARRAY(SELECT b FROM json_array_elements_text($5::json) WITH ORDINALITY AS t(b, n) ORDER BY n),
                                  $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    values: [
      rows.map((i) => notificationIdFor(i.endToEndId)),
      rows.map((i) => i.endToEndId),
      rows.map((i) => i.chave),
      rows.map((i) => i.txid),
      JSON.stringify(rows.map((i) => i.body)),
      rows.map((i) => i.correlationId),
      ...claimArgs(request, leaseToken),
    ],
  });
  const [counted, ...claimedRows] = result.rows;
  return { created: counted.created ?? 0, claimed: toClaims(claimedRows, leaseToken, request.leaseUntil) };
}
