import { Pool, type PoolClient } from 'pg';

/** pg's error when a statement outlived the connection's `query_timeout`. */
const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * Runs `work` in one transaction on one pooled connection; rolls back on any error.
 *
 * A checked-out client has no 'error' listener of the pool's (pg-pool removes it on checkout),
 * so a backend that dies while we hold the client (server restart, failover, idle-in-transaction
 * kill) would be an unhandled 'error' event that ends the process. We listen for the whole
 * checkout; the failure still reaches the caller through the pending query's rejection, and a
 * broken client is destroyed on release instead of going back to the pool.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken ??= error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // A statement past its deadline (query_timeout) left the connection waiting for an answer that
    // may never come: discarded at once, not kept for a ROLLBACK that would wait as long again.
    if (!broken && error instanceof Error && error.message === QUERY_READ_TIMEOUT) broken = error;
    // A failed ROLLBACK leaves the connection in an unknown state: discard it.
    if (!broken) await client.query('ROLLBACK').catch((rollbackError: Error) => (broken ??= rollbackError));
    throw error;
  } finally {
    client.release(broken ?? undefined);
    client.off('error', onError);
  }
}

/**
 * `work` on a one-connection pool of its own, ended afterwards: start-up migrations, which must
 * not be bound by the apps' statement deadline (building an index on a large table, or waiting
 * for another instance's migrations, takes as long as it takes).
 */
export async function withOwnPool<T>(connectionString: string, applicationName: string, work: (pool: Pool) => Promise<T>): Promise<T> {
  const pool = new Pool({ connectionString, max: 1, connectionTimeoutMillis: 5000, keepAlive: true, application_name: applicationName });
  pool.on('error', () => undefined);
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}
