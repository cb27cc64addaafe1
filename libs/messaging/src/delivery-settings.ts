import { readFileSync } from 'node:fs';
import { DEFAULT_DELIVERY_CONFIG, parseDuration, type DeliveryConfig } from '@pix/webhook-delivery';

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
  const duration = (name: string, apply: (ms: number) => void) => {
    const raw = env[name];
    if (!raw) return;
    try {
      apply(parseDuration(raw));
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message}`);
    }
  };
  duration('WEBHOOK_TIMEOUT', (ms) => (config.timeoutMs = ms));
  duration('WEBHOOK_POLL', (ms) => (config.pollMs = ms));
  duration('WEBHOOK_SLOW_RESPONSE', (ms) => (config.slowResponseMs = Math.max(1, Math.round(ms))));
  const batch = env.WEBHOOK_MAX_BATCH;
  if (batch !== undefined) {
    if (!/^[1-9]\d{0,3}$/.test(batch) || Number(batch) > 1000) problems.push(`WEBHOOK_MAX_BATCH must be an integer from 1 to 1000, got "${batch}"`);
    else config.maxBatch = Number(batch);
  }
  const allowPrivate = env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  if (allowPrivate !== undefined && allowPrivate !== 'true' && allowPrivate !== 'false') problems.push(`WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false, got "${allowPrivate}"`);
  if (allowPrivate === 'true') config.allowPrivateTargets = true;
  const perKey = env.WEBHOOK_MAX_IN_FLIGHT_PER_KEY;
  if (perKey !== undefined) {
    if (!/^[1-9]\d{0,3}$/.test(perKey)) problems.push(`WEBHOOK_MAX_IN_FLIGHT_PER_KEY must be an integer from 1 to 9999, got "${perKey}"`);
    else config.maxInFlightPerKey = Number(perKey);
  }
  if (env.WEBHOOK_RETRY_SCHEDULE) {
    try {
      config.schedule = env.WEBHOOK_RETRY_SCHEDULE.split(',').map((d) => parseDuration(d));
    } catch (error) {
      problems.push(`WEBHOOK_RETRY_SCHEDULE: ${(error as Error).message}`);
    }
  }
  const secret = env.WEBHOOK_SIGNING_SECRET;
  if (secret) {
    if (!/^whsec_[A-Za-z0-9+/=]{16,}$/.test(secret)) problems.push('WEBHOOK_SIGNING_SECRET must be "whsec_" followed by base64 (at least 16 characters)');
    else config.signingSecret = secret;
  }
  const pem = (name: string) => {
    const file = env[name];
    if (!file) return undefined;
    try {
      return readFileSync(file);
    } catch (error) {
      problems.push(`${name}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      return undefined;
    }
  };
  const cert = pem('WEBHOOK_CLIENT_CERT');
  const key = pem('WEBHOOK_CLIENT_KEY');
  const ca = pem('WEBHOOK_CA');
  if ((cert === undefined) !== (key === undefined) && !problems.some((p) => p.startsWith('WEBHOOK_CLIENT'))) problems.push('WEBHOOK_CLIENT_CERT and WEBHOOK_CLIENT_KEY go together');
  if (cert || key || ca) config.tls = { ...(cert ? { cert } : {}), ...(key ? { key } : {}), ...(ca ? { ca } : {}) };
  return config;
}
