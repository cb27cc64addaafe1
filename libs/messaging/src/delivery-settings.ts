import {
  DEFAULT_DELIVERY_CONFIG,
  decodeSigningSecret,
  parseDuration,
  parseSchedule,
  resolveDeliveryConfig,
  type DeliveryConfig,
} from '@pix/webhook-delivery';
import { readIntegerSetting } from '@pix/observability';
import { loadTlsSettings } from './tls-settings';

const MINUTE = 60_000;
/**
 * Bounds on the durations. WEBHOOK_TIMEOUT at most 10 minutes: a claim's lease is the timeout plus
 * a 30 s margin (ADR 15), and a crashed worker's deliveries wait out that lease before another
 * worker sends them; a longer value (e.g. 100d) also overflows Node's timers, which then fire at once.
 * WEBHOOK_POLL at most a minute: due retries wait up to one poll before they are sent.
 */
export const DELIVERY_DURATION_BOUNDS = {
  WEBHOOK_TIMEOUT: { maxMs: 10 * MINUTE, max: '10m' },
  WEBHOOK_POLL: { maxMs: MINUTE, max: '1m' },
  WEBHOOK_SLOW_RESPONSE: { maxMs: 10 * MINUTE, max: '10m' },
} as const;

/** Fewest bytes of HMAC key accepted (the Standard Webhooks libraries generate 24 to 64). */
export const MIN_SIGNING_KEY_BYTES = 16;

/**
 * Webhook delivery settings from an environment record the app passes in (validated once at
 * start-up, a message per bad value in `problems`):
 * WEBHOOK_TIMEOUT (15s), WEBHOOK_POLL (1s), WEBHOOK_MAX_IN_FLIGHT_PER_KEY (8: the ceiling of a key's
 * adaptive lane), WEBHOOK_MAX_BATCH (50 Pix per POST; 1 = no batching), WEBHOOK_SLOW_RESPONSE
 * (1s: a slower answer shrinks the lane),
 * WEBHOOK_ALLOW_PRIVATE_TARGETS (false: private, loopback and reserved addresses are refused),
 * WEBHOOK_RETRY_SCHEDULE ("5s,30s,2m,…,24h"), WEBHOOK_SIGNING_SECRET
 * (whsec_…), WEBHOOK_CLIENT_CERT / WEBHOOK_CLIENT_KEY / WEBHOOK_CA (PEM file paths, for mTLS).
 */
export function loadDeliverySettings(env: Record<string, string | undefined>, problems: string[]): DeliveryConfig {
  const config: DeliveryConfig = { ...DEFAULT_DELIVERY_CONFIG, schedule: [...DEFAULT_DELIVERY_CONFIG.schedule] };
  const duration = (name: keyof typeof DELIVERY_DURATION_BOUNDS, apply: (ms: number) => void) => {
    const raw = env[name];
    if (raw === undefined) return;
    const { maxMs, max } = DELIVERY_DURATION_BOUNDS[name];
    try {
      const ms = parseDuration(raw);
      if (ms < 1 || ms > maxMs) problems.push(`${name} must be more than 0 and at most ${max}, got "${raw}"`);
      else apply(ms);
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message}`);
    }
  };
  duration('WEBHOOK_TIMEOUT', (ms) => (config.timeoutMs = ms));
  duration('WEBHOOK_POLL', (ms) => (config.pollMs = ms));
  duration('WEBHOOK_SLOW_RESPONSE', (ms) => (config.slowResponseMs = ms));
  config.maxBatch = readIntegerSetting(env, 'WEBHOOK_MAX_BATCH', { fallback: config.maxBatch!, min: 1, max: 1000 }, problems);
  const allowPrivate = env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  if (allowPrivate !== undefined && allowPrivate !== 'true' && allowPrivate !== 'false') problems.push(`WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false, got "${allowPrivate}"`);
  if (allowPrivate === 'true') config.allowPrivateTargets = true;
  config.maxInFlightPerKey = readIntegerSetting(env, 'WEBHOOK_MAX_IN_FLIGHT_PER_KEY', { fallback: config.maxInFlightPerKey, min: 1, max: 9999 }, problems);
  // Set but empty is refused rather than read as "no retries": unset keeps the default schedule.
  if (env.WEBHOOK_RETRY_SCHEDULE !== undefined) {
    try {
      config.schedule = parseSchedule(env.WEBHOOK_RETRY_SCHEDULE);
    } catch (error) {
      problems.push(`WEBHOOK_RETRY_SCHEDULE: ${(error as Error).message}`);
    }
  }
  // Empty means unsigned, as unset does (the secret and the PEM paths are switches).
  const secret = env.WEBHOOK_SIGNING_SECRET;
  if (secret) {
    const bytes = signingKeyBytes(secret);
    if (bytes === undefined) problems.push('WEBHOOK_SIGNING_SECRET must be "whsec_" followed by base64');
    else if (bytes < MIN_SIGNING_KEY_BYTES) problems.push(`WEBHOOK_SIGNING_SECRET decodes to ${bytes} bytes; use at least ${MIN_SIGNING_KEY_BYTES} (e.g. "whsec_$(openssl rand -base64 32)")`);
    else config.signingSecret = secret;
  }
  const tls = loadTlsSettings(env, problems);
  if (tls) config.tls = tls;
  // Backstop: whatever the delivery worker would refuse later (a stack trace and exit 1) is a named problem now.
  if (problems.length === 0) {
    try {
      resolveDeliveryConfig(config);
    } catch (error) {
      problems.push(`WEBHOOK_*: ${(error as Error).message}`);
    }
  }
  return config;
}

function signingKeyBytes(secret: string): number | undefined {
  try {
    return decodeSigningSecret(secret).length;
  } catch {
    return undefined;
  }
}
