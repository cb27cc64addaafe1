import type { Pool } from 'pg';
import { NOTIFICATION_COLUMNS, toAttempt, toNotification } from './outbox-rows';
import type { DeliveryAttempt, NotificationStatus, OutboxNotification } from './types';

export const NOTIFICATION_STATUSES: readonly NotificationStatus[] = ['pending', 'delivered', 'dead', 'cancelled'];

/** One page of the operator's listing: newest first, optionally one status, strictly before a cursor. */
export interface OutboxPageQuery {
  limit: number;
  status?: NotificationStatus;
  /** A cursor a previous page returned (`<created_at with µs>,<id>`), or an instant alone: rows created before it. */
  before?: { at: string; id?: string };
}

export type ListedNotification = OutboxNotification & { attempts: DeliveryAttempt[] };

/** Rows created before this id at the same instant: the smallest uuid, so `(at)` alone means "created before at". */
const LOWEST_ID = '00000000-0000-0000-0000-000000000000';

/**
 * The attempt log's rows (alias `a`), each with `resend`: how many resends that started a new
 * cycle (webhook_outbox_resends) came before it, so attempt 1 after a resend is told from the first.
 */
export const ATTEMPTS_SELECT = `SELECT a.notification_id, a.attempt, a.attempted_at, a.url, a.status_code, a.latency_ms, a.error, a.outcome, a.delivery_id, a.batch_size,
       (SELECT count(*) FROM webhook_outbox_resends r WHERE r.notification_id = a.notification_id AND r.after_seq < a.seq)::int AS resend
  FROM webhook_outbox_attempts a`;

/** Run before the page's statement, in its transaction. */
export const PAGE_SETTINGS = 'SET LOCAL enable_seqscan = off';

/** The page's statement (exported for the plan test): `$1` the limit, `$2`, `$3` the cursor. */
export function pageSql(query: OutboxPageQuery): string {
  const where: string[] = [];
  if (query.status) where.push(`status = '${NOTIFICATION_STATUSES.find((s) => s === query.status)}'`);
  if (query.before) where.push('(created_at, id) < ($2::timestamptz, $3::uuid)');
  return `SELECT ${NOTIFICATION_COLUMNS}, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || id AS cursor
            FROM webhook_outbox ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
           ORDER BY created_at DESC, id DESC LIMIT $1`;
}

export const pageParams = (query: OutboxPageQuery): unknown[] => (query.before ? [query.limit, query.before.at, query.before.id ?? LOWEST_ID] : [query.limit]);

/**
 * Keyset paging on (created_at, id), both descending: a notification stored while an operator
 * pages is newer than every cursor, so pages neither repeat nor skip rows. The cursor keeps
 * created_at's microseconds (a batch's rows are a microsecond apart; a JS Date would lose them).
 * Served by an index read backwards: `webhook_outbox_dead_idx` for dead ones (what an operator
 * looks for), `webhook_outbox_created_idx` otherwise (other statuses filtered along it). The status
 * is a literal from the fixed list, so the planner can match the partial index. `status` has no
 * statistics (ADR 15), so the planner guesses "few delivered" and would sort the whole table for
 * a page of them: sequential scans are off for this statement (PAGE_SETTINGS), as for the results
 * function. A rare status (cancelled) may walk a long stretch of the index: an operator's step.
 */
export async function outboxPage(pool: Pool, query: OutboxPageQuery): Promise<{ items: ListedNotification[]; next: string | null }> {
  const client = await pool.connect();
  let rows: Record<string, any>[];
  try {
    await client.query(`BEGIN; ${PAGE_SETTINGS}`);
    rows = (await client.query(pageSql(query), pageParams(query))).rows;
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  if (rows.length === 0) return { items: [], next: null };
  const logged = await pool.query(`${ATTEMPTS_SELECT} WHERE a.notification_id = ANY($1::uuid[]) ORDER BY a.seq`, [rows.map((r) => r.id)]);
  const items = rows.map((r) => ({ ...toNotification(r), attempts: logged.rows.filter((a) => a.notification_id === r.id).map(toAttempt) }));
  // A short page is the last one; a full one may be too, and the next call then answers an empty page.
  return { items, next: rows.length === query.limit ? (rows[rows.length - 1].cursor as string) : null };
}
