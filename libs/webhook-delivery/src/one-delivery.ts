import type { Pool } from 'pg';
import type { ClaimedNotification } from './claim';
import type { ResolvedDeliveryConfig } from './config';
import type { HttpSender } from './http-sender';
import type { Lanes } from './lanes';
import type { AttemptRecorder } from './attempt-recorder';
import { carried, claimLogger, DEAD_NOTIFICATION } from './claim-logger';
import { recordCancelled, recordSplit, releaseUnsent } from './record-result';
import { releaseUnbatched, sweepBeforeRemoval, type RegistrationSweepDeps } from './registration-sweep';
import { urlForLog } from './log-url';
import { decideAfterAttempt, parseRetryAfter } from './retry-policy';
import { signWebhook } from './signature';
import type { Clock, DeliveryLogger } from './types';

/** When a delivery whose webhook could not be read (our store away) is due again. */
const LOOKUP_RETRY_MS = 1000;

/** What one POST needs from its worker; the worker keeps the scheduling (claims, slots, leases held). */
export interface OneDeliveryDeps extends RegistrationSweepDeps {
  pool: Pool;
  config: ResolvedDeliveryConfig;
  sender: HttpSender;
  lanes: Lanes;
  recorder: AttemptRecorder;
  clock: Clock;
  logger: DeliveryLogger;
  secret?: Buffer;
  /** Whether this delivery's slot may go straight to its key's next due notification (handover). */
  mayHandOver(claim: ClaimedNotification): boolean;
}

type SendResult = { statusCode: number | null; error: string | null; latencyMs: number; retryAfter?: string };

/**
 * One claimed delivery, start to end: the key's webhook (none: cancelled), the POST to
 * `{webhookUrl}/pix` signed when a secret is set, what the answer teaches the key's lane (a 413
 * splits the batch), and the attempt recorded with its status transition under the lease.
 * `posted` is called when the POST has ended (its slot is free while the result is written).
 */
export async function deliverOne(deps: OneDeliveryDeps, claim: ClaimedNotification, lookup: Promise<string | undefined>, posted: () => void): Promise<void> {
  const { clock, config, lanes, pool } = deps;
  const logger = claimLogger(deps.logger, claim);
  let webhookUrl: string | undefined;
  try {
    webhookUrl = await lookup;
  } catch (error) {
    // Our own read failed (the event store is away), not the receiver: the delivery goes back, due
    // again shortly, and does not use up one of the receiver's scheduled attempts (outage audit).
    const now = clock.now();
    await releaseUnsent(pool, [claim], now, new Date(now.getTime() + LOOKUP_RETRY_MS));
    logger.error(`webhook ${claim.id} for ${carried(claim)}: not sent, the webhook lookup failed (${(error as Error).message}); due again in ${LOOKUP_RETRY_MS} ms, the attempt not counted`);
    return;
  }
  if (webhookUrl === undefined) {
    const reason = `no webhook registered for chave ${claim.chave}`;
    const applied = await recordCancelled(pool, claim, reason, clock.now());
    if (applied) logger.log(`webhook ${claim.id} for ${carried(claim)}: cancelled, ${reason}`);
    return;
  }
  const kept = await sweepBeforeRemoval(deps, claim, clock.now());
  if (kept !== undefined && kept.length < claim.items.length) {
    if (kept.length > 0) await releaseUnbatched(pool, claim, kept, clock.now());
    logger.log(`webhook ${claim.id} for ${carried(claim)}: not sent, ${claim.items.length - kept.length} of its ${claim.items.length} Pix stored before the webhook of chave ${claim.chave} was removed and registered again${kept.length > 0 ? '; the others go in a delivery of their own' : ''}`);
    return;
  }
  const url = `${webhookUrl}/pix`; // the official callback: plain concatenation, as BCB specifies
  const at = clock.now();
  if (at.getTime() + config.timeoutMs > claim.leaseUntil.getTime()) {
    // A slow lookup ate the margin: sending now could outlive the lease and race a takeover.
    await record(deps, claim, url, { statusCode: null, error: 'not sent: lease too short for the request deadline (slow webhook lookup)', latencyMs: 0 }, at);
    return;
  }
  const result = await deps.sender.send(url, claim.body, headers(deps.secret, claim, at));
  posted();
  lanes.observe(claim.chave, result);
  if (result.statusCode === 413 && claim.items.length > 1) {
    lanes.tooLarge(claim.chave, claim.items.length);
    const finishedAt = clock.now();
    const error = `HTTP 413: batch of ${claim.items.length} split in two`;
    // The halves are due at once, or when the receiver's Retry-After says (capped as for any retry).
    const wait = Math.min(parseRetryAfter(result.retryAfter, finishedAt) ?? 0, config.maxRetryAfterMs);
    const nextAttemptAt = new Date(finishedAt.getTime() + wait);
    const applied = await recordSplit(pool, claim, { at, url, statusCode: 413, error, latencyMs: result.latencyMs, outcome: 'retry', nextAttemptAt, finishedAt });
    (logger.warn ?? logger.log).call(logger, `webhook ${claim.id} to ${urlForLog(url)} for ${carried(claim)}: ${error}${applied ? '' : '; lease lost, left to its new holder'}`);
    return;
  }
  await record(deps, claim, url, result, at);
}

function headers(secret: Buffer | undefined, claim: ClaimedNotification, at: Date): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'pix-webhook-delivery/1',
    'webhook-id': claim.id,
  };
  if (secret) {
    const timestamp = Math.floor(at.getTime() / 1000);
    headers['webhook-timestamp'] = String(timestamp);
    headers['webhook-signature'] = signWebhook(secret, claim.id, timestamp, claim.body);
  }
  return headers;
}

async function record(deps: OneDeliveryDeps, claim: ClaimedNotification, url: string, result: SendResult, at: Date): Promise<void> {
  const { config } = deps;
  const logger = claimLogger(deps.logger, claim);
  const finishedAt = deps.clock.now();
  const decision = decideAfterAttempt({
    attempt: claim.attempt,
    statusCode: result.statusCode,
    retryAfterMs: parseRetryAfter(result.retryAfter, finishedAt),
    now: finishedAt,
    schedule: config.schedule,
    jitter: config.jitter,
    maxRetryAfterMs: config.maxRetryAfterMs,
  });
  // Slot handover (unbatched keys): this lease, once released, goes to the key's next due
  // notification in the same statement, while the key's lane still has room for it.
  const handOver = deps.mayHandOver(claim);
  const attempt = { at, url, ...result, outcome: decision.outcome, nextAttemptAt: decision.nextAttemptAt, finishedAt };
  const applied = await deps.recorder.record({ claim, record: attempt, handOver });
  try {
    config.onAttempt?.({ outcome: applied ? decision.outcome : 'lease_lost', latencyMs: result.latencyMs });
  } catch {
    /* an observer's failure is not the delivery's */
  }
  const what = `webhook ${claim.id}${claim.items.length > 1 ? ` (${claim.items.length} Pix)` : ''} attempt ${claim.attempt} to ${urlForLog(url)} for ${carried(claim)}: ${result.error ?? `HTTP ${result.statusCode}`} in ${Math.round(result.latencyMs)} ms`;
  if (!applied) logger.error(`${what}; lease lost (taken over or resent meanwhile), status left to its new holder`);
  else if (decision.outcome === 'delivered') logger.log(`${what}; delivered`);
  else if (decision.outcome === 'dead') logger.error(`${what}; ${DEAD_NOTIFICATION}`);
  // A warning, not info: alerts set at warn see a receiver failing now, not when its schedule has run out.
  else (logger.warn ?? logger.log).call(logger, `${what}; next attempt at ${decision.nextAttemptAt?.toISOString()}`);
}
