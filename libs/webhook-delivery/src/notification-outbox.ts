import type { Pool, PoolClient } from 'pg';
import { enqueueAndClaim } from './enqueue';
import { notificationIdFor } from './notification-id';
import { ATTEMPTS_SELECT, NOTIFICATION_STATUSES, outboxPage, type ListedNotification, type OutboxPageQuery } from './outbox-page';
import { NOTIFICATION_COLUMNS, toAttempt, toNotification } from './outbox-rows';
import { resendSql } from './resend-sql';
import { ensureOutboxSchema } from './schema';
import {
  systemClock,
  type Clock,
  type DeliveryAttempt,
  type IntakeItem,
  type OutboxNotification,
  type OutboxStats,
  type PixNotificationInput,
  type ResendSelector,
} from './types';

/** The durable queue of cash-in notifications. Workers (`DeliveryWorker`) drain it. */
export class NotificationOutbox {
  private constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
  ) {}

  /** Creates the tables if needed (safe when several processes start at once). */
  static async create(pool: Pool, clock: Clock = systemClock): Promise<NotificationOutbox> {
    await ensureOutboxSchema(pool);
    return new NotificationOutbox(pool, clock);
  }

  /**
   * Queues a notification, once per endToEndId: the same cash-in consumed twice (redelivered
   * Kafka message, replay) yields the one existing notification. Pass `client` to enqueue inside
   * the caller's own transaction.
   */
  async enqueue(input: PixNotificationInput, client?: PoolClient): Promise<{ id: string; created: boolean }> {
    const { created } = await enqueueAndClaim(client ?? this.pool, [input], this.clock.now());
    return { id: notificationIdFor(input.endToEndId), created: created === 1 };
  }

  /**
   * Queues a batch of notifications in one statement, once per endToEndId: only an endToEndId's
   * first copy counts, skipped ones included (ADR 7), so a later copy, in this batch or another,
   * is not stored. Rows get timestamps a microsecond apart, up to now, so a key's notifications
   * are claimed in the order given.
   */
  async enqueueMany(inputs: IntakeItem[], client?: PoolClient): Promise<{ created: number }> {
    const { created } = await enqueueAndClaim(client ?? this.pool, inputs, this.clock.now());
    return { created };
  }

  /**
   * Makes delivered, dead or cancelled notifications pending again, each as a delivery of its own
   * under its own id (receivers deduplicate on `webhook-id` or on the item's `endToEndId`), with a
   * fresh schedule; pending ones waiting for a later attempt (a receiver's Retry-After may park
   * them for 24 h) are made due now, with their batch, unless in flight (resend-sql.ts). Criteria
   * combine with AND; at least one is required so a typo cannot resend everything. Answers how
   * many notifications it changed.
   */
  async resend(selector: ResendSelector): Promise<number> {
    const where: string[] = ['retired_at IS NULL'];
    const params: unknown[] = [this.clock.now()];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (selector.ids) add('id = ANY(?::uuid[])', selector.ids.filter(isUuid));
    if (selector.endToEndIds) add('end_to_end_id = ANY(?::text[])', selector.endToEndIds);
    // A literal from the fixed list (no parameter): the planner can take the dead rows' partial index.
    if (selector.status) where.push(`status = '${NOTIFICATION_STATUSES.find((s) => s === selector.status)}'`);
    if (selector.from) add('created_at >= ?', selector.from);
    if (selector.to) add('created_at < ?', selector.to);
    if (where.length === 1) throw new Error('resend: give at least one of ids, endToEndIds, status, from, to');
    const { rows } = await this.pool.query<{ n: number }>(resendSql(where.join(' AND ')), params);
    return rows[0].n;
  }

  /**
   * The key left its receiver: its notifications are retired (see RETIRED_DDL). Pending ones are
   * cancelled with `reason`, leased ones included (a POST in flight still goes to the old owner's
   * URL, which is theirs; its result then finds the row no longer pending). Returns how many were
   * pending. Reads the outbox by key without an index: an operator's rare step, not a hot path.
   */
  async retireKey(chave: string, reason: string): Promise<number> {
    const now = this.clock.now();
    const { rows } = await this.pool.query<{ n: number }>(
      `WITH retired AS (
         UPDATE webhook_outbox
            SET retired_at = $3, updated_at = $3,
                status = CASE WHEN status = 'pending' THEN 'cancelled' ELSE status END,
                reason = CASE WHEN status = 'pending' THEN $2 ELSE reason END,
                lease_until = NULL, lease_token = NULL
          WHERE chave = $1 AND retired_at IS NULL
          RETURNING (reason = $2 AND status = 'cancelled') AS was_pending
       )
       SELECT count(*) FILTER (WHERE was_pending)::int AS n FROM retired`,
      [chave, reason, now],
    );
    return rows[0].n;
  }

  async get(id: string): Promise<OutboxNotification | undefined> {
    if (!isUuid(id)) return undefined;
    const { rows } = await this.pool.query(`SELECT ${NOTIFICATION_COLUMNS} FROM webhook_outbox WHERE id = $1`, [id]);
    return rows[0] ? toNotification(rows[0]) : undefined;
  }

  /** The attempt log, oldest first (across resends, each attempt telling which resend it follows). */
  async attempts(id: string): Promise<DeliveryAttempt[]> {
    if (!isUuid(id)) return [];
    const { rows } = await this.pool.query(`${ATTEMPTS_SELECT} WHERE a.notification_id = $1 ORDER BY a.seq`, [id]);
    return rows.map(toAttempt);
  }

  /** The newest notifications (by creation, at most `limit`), each with its attempt log oldest first. */
  async recent(limit: number): Promise<ListedNotification[]> {
    return (await this.page({ limit })).items;
  }

  /** A page of the operator's listing (outbox-page.ts): `next` is the cursor of the following page, or null. */
  page(query: OutboxPageQuery): Promise<{ items: ListedNotification[]; next: string | null }> {
    return outboxPage(this.pool, query);
  }

  async stats(): Promise<OutboxStats> {
    const { rows } = await this.pool.query(
      `SELECT (SELECT count(*) FROM webhook_outbox WHERE status = 'pending')::int AS pending,
              (SELECT count(*) FROM webhook_outbox WHERE status = 'dead')::int AS dead,
              (SELECT count(*) FROM webhook_outbox WHERE status = 'pending' AND lease_until > $1)::int AS in_flight,
              (SELECT min(pending_since) FROM webhook_outbox WHERE status = 'pending') AS oldest`,
      [this.clock.now()],
    );
    const oldest: Date | null = rows[0].oldest;
    return {
      pending: rows[0].pending,
      dead: rows[0].dead,
      inFlight: rows[0].in_flight,
      oldestPendingAgeMs: oldest ? Math.max(0, this.clock.now().getTime() - oldest.getTime()) : null,
    };
  }
}

function isUuid(text: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
}
