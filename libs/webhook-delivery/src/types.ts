/** What the cash-in consumer hands over: one settled Pix, as the official `Pix` object. */
export interface PixNotificationInput {
  endToEndId: string;
  chave: string;
  txid: string;
  /** The official Pix object exactly as it is to be sent inside `{"pix":[...]}`. */
  pix: Record<string, unknown>;
  /** The request that published the cash-in (ADR 17), named on its delivery lines. */
  correlationId?: string;
}

/**
 * A cash-in the intake read but does not notify (no txid, no webhook, or paid to the key's former
 * holder). It still is its endToEndId's first copy, as settlement counts it: a later copy with
 * other content must not be notified either (ADR 7).
 */
export interface SkippedCashIn {
  endToEndId: string;
  skipped: true;
}

/** Every valid cash-in of an intake batch, in the batch's order: notified or only remembered. */
export type IntakeItem = PixNotificationInput | SkippedCashIn;

export const isSkipped = (item: IntakeItem): item is SkippedCashIn => 'skipped' in item && item.skipped === true;

/**
 * Authoritative webhook lookup injected by the app (read at every attempt, never cached here, so
 * a deleted or changed registration takes effect on the next attempt). `undefined` = no webhook.
 */
export interface WebhookRegistrations {
  urlFor(chave: string): Promise<string | undefined>;
  /**
   * When the key's webhook was last removed before the registration its latest `urlFor` found
   * (RFC 3339; undefined: never). Notifications pending since before then are cancelled, not sent.
   */
  removedBefore?(chave: string): string | undefined;
}

export interface Clock {
  now(): Date;
}

export interface DeliveryLogger {
  log(message: string): void;
  error(message: string): void;
  /** Something the operator should change; `log` where the logger has no warning level. */
  warn?(message: string): void;
}

export const systemClock: Clock = { now: () => new Date() };

/** `pending` includes notifications currently in flight (they carry a lease). */
export type NotificationStatus = 'pending' | 'delivered' | 'dead' | 'cancelled';

export interface OutboxNotification {
  /** UUID v5 of the endToEndId; sent as `webhook-id` on every attempt and resend. */
  id: string;
  endToEndId: string;
  chave: string;
  txid: string;
  pix: Record<string, unknown>;
  status: NotificationStatus;
  /** Attempts started since the notification was (re)queued; the schedule index. */
  attemptCount: number;
  nextAttemptAt: Date;
  /** Set while a worker holds the notification (request possibly in flight). */
  leaseUntil: Date | null;
  /** When it last became pending (enqueue or resend): the base of `oldestPendingAgeMs`. */
  pendingSince: Date;
  createdAt: Date;
  updatedAt: Date;
  deliveredAt: Date | null;
  lastError: string | null;
  /** Why it is cancelled (or dead). */
  reason: string | null;
}

export type AttemptOutcome = 'delivered' | 'retry' | 'dead';

export interface DeliveryAttempt {
  /** 1-based attempt number within the current cycle (a resend starts a new cycle at 1; see `resend`). */
  attempt: number;
  at: Date;
  /** The POST's URL as the logs show it: scheme, host, port and path ("?…" where a query was). */
  url: string | null;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  outcome: AttemptOutcome;
  /** The `webhook-id` of the POST: the notification's own id, or its batch's (null: logged before batching). */
  deliveryId: string | null;
  /** How many Pix that POST carried. */
  batchSize: number;
  /**
   * 0 before any resend; n after the n-th resend that started a new cycle (a delivered, dead or
   * cancelled notification sent again), where `attempt` starts at 1 again: the schedule restarts.
   */
  resend: number;
}

export interface ResendSelector {
  ids?: string[];
  endToEndIds?: string[];
  /** Only notifications in this status (e.g. every dead one since `from`). */
  status?: NotificationStatus;
  /** Inclusive lower bound on the notification's creation (enqueue) time. */
  from?: Date;
  /** Exclusive upper bound on the notification's creation (enqueue) time. */
  to?: Date;
}

export interface OutboxStats {
  pending: number;
  dead: number;
  /** Pending notifications under an unexpired lease: their request in flight, or claimed and about to start. */
  inFlight: number;
  /** Age of the oldest undelivered notification; alert on it, a stalled sender shows here. */
  oldestPendingAgeMs: number | null;
}
