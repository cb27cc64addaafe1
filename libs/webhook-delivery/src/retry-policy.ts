import type { AttemptOutcome } from './types';

/**
 * Every non-2xx answer is retried, 4xx included (as Svix, Stripe and most providers do): a 404 or
 * 400 usually means a receiver mid-deploy or misconfigured, which its owner fixes within the
 * schedule; giving up at once would lose a payment notice. Redirects are not followed and count
 * as failures (the registered URL is the one the key owner vouched for).
 */
export function isDelivered(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

/** Retry-After as seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: Date): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}

export interface RetryDecision {
  outcome: AttemptOutcome;
  /** When the next attempt is due (for `retry`). */
  nextAttemptAt?: Date;
}

export interface RetryInputs {
  /** 1-based number of the attempt that just ended. */
  attempt: number;
  statusCode: number | null;
  retryAfterMs?: number;
  now: Date;
  schedule: readonly number[];
  jitter: number;
  maxRetryAfterMs: number;
  random?: () => number;
}

/**
 * After attempt n fails, attempt n+1 waits schedule[n-1] ± jitter, or longer when the receiver's
 * Retry-After asks for it (capped). Once the schedule is used up the notification is dead.
 */
export function decideAfterAttempt(input: RetryInputs): RetryDecision {
  if (isDelivered(input.statusCode)) return { outcome: 'delivered' };
  if (input.attempt > input.schedule.length) return { outcome: 'dead' };
  const base = input.schedule[input.attempt - 1];
  const random = input.random ?? Math.random;
  let delay = Math.max(0, Math.round(base * (1 + input.jitter * (2 * random() - 1))));
  if (input.retryAfterMs !== undefined) delay = Math.max(delay, Math.min(input.retryAfterMs, input.maxRetryAfterMs));
  return { outcome: 'retry', nextAttemptAt: new Date(input.now.getTime() + delay) };
}
