import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '@pix/event-store';
import { CLAIM_LOCK_ID } from './schema';

/**
 * Runs `work` in a transaction that holds the claim lock, with BEGIN and the lock sent as one
 * simple-protocol query: one round trip fewer on the path every delivery waits on (claims run one
 * at a time across all workers).
 */
export function inClaimTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(pool, work, { begin: `BEGIN; SELECT pg_advisory_xact_lock(${CLAIM_LOCK_ID})` });
}
