/**
 * Errors that say "the database (or EventStoreDB) cannot be reached right now" rather than "this request is
 * wrong" or "our code is wrong": the server is down, restarting, refusing connections or
 * dropped ours. Callers answer 503 and retry later; nothing was written (a transaction whose
 * connection died was never committed).
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);

/** SQLSTATEs: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections. */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * Refusals of a new connection: invalid authorization (class 28: a rotated password), a database
 * renamed or dropped (3D000), and one an operator closed (`ALLOW_CONNECTIONS false`: 55000, which
 * elsewhere means a query in the wrong state, so only from the connect check `CheckMyDatabase`).
 */
const isConnectRefusal = (code: string, routine: unknown) => code.startsWith('28') || code === '3D000' || (code === '55000' && routine === 'CheckMyDatabase');

/** Messages pg and pg-pool give without a code. */
const MESSAGES = [
  /^Connection terminated/i, // 'Connection terminated unexpectedly', '... due to connection timeout'
  /timeout exceeded when trying to connect/i, // pg-pool's connectionTimeoutMillis
  /Client has encountered a connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /Cannot use a pool after calling end on the pool/i,
  /^Failed to discover after \d+ attempts/, // @eventstore/db-client: no cluster node answered gossip
  /^Query read timeout$/, // pg's query_timeout: the server stopped answering (its connection is dropped)
];

/**
 * @eventstore/db-client's CommandError types for a server that is down, restarting or changing
 * leader (its own reconnect triggers), or that timed out a call. Duck-typed (`type` plus the
 * base class's `_raw`) so that PostgreSQL deployments need not load the client.
 */
const ESDB_TYPES = new Set(['unavailable', 'deadline-exceeded', 'cancelled', 'timeout', 'not-leader']);

export function isConnectionError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const { code, message, errors, cause, type, routine } = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown; type?: unknown; routine?: unknown };
  if (typeof type === 'string' && ESDB_TYPES.has(type) && '_raw' in error) return true;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08') || isConnectRefusal(code, routine))) return true;
  if (typeof message === 'string' && MESSAGES.some((m) => m.test(message))) return true;
  // Node's AggregateError when a host name resolves to several addresses, all refused.
  if (Array.isArray(errors) && errors.some((e) => isConnectionError(e, depth + 1))) return true;
  return isConnectionError(cause, depth + 1);
}
