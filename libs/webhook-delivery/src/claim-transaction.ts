import type { Pool, PoolClient } from 'pg';
import { CLAIM_LOCK_ID } from './schema';

/**
 * Runs `work` in a transaction that holds the claim lock, as `inTransaction` of the event store
 * does, but with BEGIN and the lock sent as one simple-protocol query: one round trip fewer on
 * the path every delivery waits on (claims run one at a time across all workers).
 */
export async function inClaimTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken ??= error;
  };
  client.on('error', onError);
  try {
    await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${CLAIM_LOCK_ID})`);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // A failed ROLLBACK leaves the connection in an unknown state: discard it.
    if (!broken) await client.query('ROLLBACK').catch((rollbackError: Error) => (broken ??= rollbackError));
    throw error;
  } finally {
    client.release(broken ?? undefined);
    client.off('error', onError);
  }
}
