import { urlForRecord } from './log-url';
import type { DeliveryAttempt, NotificationStatus, OutboxNotification } from './types';

/** Column list shared by the queries that return whole notifications. */
export const NOTIFICATION_COLUMNS = `id, end_to_end_id, chave, txid, body, status, attempt_count, next_attempt_at,
  lease_until, pending_since, created_at, updated_at, delivered_at, last_error, reason`;

export function toNotification(row: Record<string, any>): OutboxNotification {
  return {
    id: row.id,
    endToEndId: row.end_to_end_id,
    chave: row.chave,
    txid: row.txid,
    pix: (JSON.parse(row.body) as { pix: Record<string, unknown>[] }).pix[0],
    status: row.status as NotificationStatus,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.next_attempt_at,
    leaseUntil: row.lease_until,
    pendingSince: row.pending_since,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deliveredAt: row.delivered_at,
    lastError: row.last_error,
    reason: row.reason,
  };
}

export function toAttempt(row: Record<string, any>): DeliveryAttempt {
  return {
    attempt: row.attempt,
    at: row.attempted_at,
    // Stripped on read too: rows from before urlForRecord was applied on write keep the query.
    url: urlForRecord(row.url),
    statusCode: row.status_code,
    latencyMs: row.latency_ms,
    error: row.error,
    outcome: row.outcome,
    // The POST's `webhook-id` (a batch's id when it carried several) and how many Pix it carried.
    deliveryId: row.delivery_id ?? null,
    batchSize: row.batch_size ?? 1,
    resend: row.resend ?? 0,
  };
}
