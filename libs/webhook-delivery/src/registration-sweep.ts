import type { Pool } from 'pg';
import type { ClaimedNotification } from './claim';
import { STILL_PENDING } from './by-id-sql';

export interface RegistrationSweepDeps {
  pool: Pool;
  /** When the key's webhook was last removed before its current registration, as the last read found. */
  removedBefore?(chave: string): string | undefined;
  /** Per key, the removal this worker has already swept for. */
  swept: Map<string, string>;
}

/**
 * A DELETE stops everything not yet sent (ADR 7), also when the webhook is registered again
 * before a parked retry comes due: the delivery that finds the key's webhook gone cancels, but a
 * retry waiting out a 429 found the new registration (hostile-receiver audit: sent to it 4.5 s
 * after the DELETE). So the first time this worker sees a registration made after a removal, it
 * cancels that key's notifications pending since before the removal (one UPDATE per key and
 * removal; keys never removed cost nothing), then keeps only this claim's items still pending
 * under its lease (another worker may have swept first). Answers undefined when it swept
 * nothing: send as is.
 */
export async function sweepBeforeRemoval(deps: RegistrationSweepDeps, claim: ClaimedNotification, now: Date): Promise<string[] | undefined> {
  const removedAt = deps.removedBefore?.(claim.chave);
  if (removedAt === undefined || deps.swept.get(claim.chave) === removedAt) return undefined;
  await deps.pool.query(
    `UPDATE webhook_outbox
        SET status = 'cancelled', reason = $3, lease_until = NULL, lease_token = NULL, updated_at = $4,
            attempt_count = attempt_count - CASE WHEN lease_token = $5 THEN 1 ELSE 0 END
      WHERE chave = $1 AND status = 'pending' AND retired_at IS NULL AND pending_since < $2`,
    [claim.chave, removedAt, `the webhook of chave ${claim.chave} was removed at ${removedAt}, after this Pix was stored`, now, claim.leaseToken],
  );
  deps.swept.set(claim.chave, removedAt);
  const { rows } = await deps.pool.query<{ id: string }>(`SELECT id FROM webhook_outbox WHERE id = ANY($1::uuid[]) AND lease_token = $2 AND status = ${STILL_PENDING}`, [
    claim.items,
    claim.leaseToken,
  ]);
  const ours = new Set(rows.map((r) => r.id));
  return claim.items.filter((id) => ours.has(id));
}

/** A claim's items left after a sweep: out of its batch (whose body names cancelled ones) and due again at once. */
export async function releaseUnbatched(pool: Pool, claim: ClaimedNotification, items: string[], now: Date): Promise<void> {
  await pool.query(
    `UPDATE webhook_outbox SET batch_id = NULL, lease_until = NULL, lease_token = NULL, attempt_count = attempt_count - 1, updated_at = $3
      WHERE id = ANY($1::uuid[]) AND lease_token = $2 AND status = ${STILL_PENDING}`,
    [items, claim.leaseToken, now],
  );
}
