export interface DeliveryTlsOptions {
  /** Client certificate (PEM) presented to receivers that require mTLS. */
  cert?: string | Buffer;
  key?: string | Buffer;
  /** CA bundle (PEM) to trust for receivers' server certificates, in place of the default set. */
  ca?: string | Buffer;
}

export interface DeliveryConfig {
  /** Whole-request deadline (connect + TLS + response) in ms. */
  timeoutMs: number;
  /** Delays in ms before attempts 2..n; attempts = schedule.length + 1. */
  schedule: number[];
  /** Relative jitter applied to each delay: 0.2 = ±20%. */
  jitter: number;
  /**
   * Requests in flight per worker. The worker claims up to as many again ahead of free slots
   * (leased, waiting in memory), so a request that ends starts the next one at once.
   */
  concurrency: number;
  /**
   * Ceiling of deliveries in flight per Pix key across all workers, so one bad receiver cannot hog
   * the pool; each key's lane adapts between 1 and this, starting at 2 (see lanes.ts).
   */
  maxInFlightPerKey: number;
  /** Notifications per POST to one key when several are waiting; 1 turns batching off. Default 50. */
  maxBatch?: number;
  /** An answer slower than this (ms) shrinks the key's lane as a failure does. Default 1 s. */
  slowResponseMs?: number;
  /** Idle poll interval when nothing is due. */
  pollMs: number;
  tls?: DeliveryTlsOptions;
  /** Standard Webhooks secret `whsec_<base64>`; when set, requests are signed. */
  signingSecret?: string;
  /**
   * How long a claim outlives the request deadline (lease = timeoutMs + leaseMarginMs). Covers
   * recording the result, event-loop stalls and clock skew between worker hosts. Default 30 s.
   */
  leaseMarginMs?: number;
  /**
   * Let deliveries reach private, loopback or reserved addresses (local mode, tests). Off by
   * default: production refuses them when connecting, whatever DNS says then.
   */
  allowPrivateTargets?: boolean;
  /** Upper bound honoured for a receiver's Retry-After. Default 24 h. */
  maxRetryAfterMs?: number;
  /** Told of every recorded attempt (the apps count them in their metrics); never throws into delivery. */
  onAttempt?: (attempt: { outcome: 'delivered' | 'retry' | 'dead' | 'lease_lost'; latencyMs: number }) => void;
}

const S = 1000;
const M = 60 * S;
const H = 60 * M;

/**
 * 11 attempts over ~46.7 h: quick retries for blips, then a tail past 24 h so a receiver that is
 * down for a day still gets everything (Svix: 8 over ~28 h; Efí: 11 over weeks).
 */
export const DEFAULT_SCHEDULE: readonly number[] = [5 * S, 30 * S, 2 * M, 10 * M, 30 * M, H, 3 * H, 6 * H, 12 * H, 24 * H];

export const DEFAULT_DELIVERY_CONFIG: Readonly<DeliveryConfig> = Object.freeze({
  timeoutMs: 15 * S,
  schedule: [...DEFAULT_SCHEDULE],
  jitter: 0.2,
  concurrency: 64,
  maxInFlightPerKey: 8,
  maxBatch: 50,
  slowResponseMs: 1000,
  pollMs: 1000,
  leaseMarginMs: 30 * S,
  maxRetryAfterMs: 24 * H,
});

const UNIT_MS: Record<string, number> = { ms: 1, s: S, m: M, h: H, d: 24 * H };

/** Parses a duration such as `500ms`, `5s`, `2m`, `1h`, `1d`; a bare number means ms. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) throw new Error(`invalid duration "${text}": use a number with ms, s, m, h or d (e.g. "30s")`);
  return Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']);
}

/** `"5s,30s,2m,1h,24h"` -> `[5000, 30000, 120000, 3600000, 86400000]`. */
export function parseSchedule(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => p === '')) throw new Error(`invalid schedule "${text}": expected comma-separated durations like "5s,30s,2m"`);
  return parts.map(parseDuration);
}

export type ResolvedDeliveryConfig = DeliveryConfig & Required<Pick<DeliveryConfig, 'leaseMarginMs' | 'maxRetryAfterMs' | 'maxBatch' | 'slowResponseMs'>>;

/** Fills defaults and rejects values that would silently break delivery (one message per value). */
export function resolveDeliveryConfig(config: Partial<DeliveryConfig>): ResolvedDeliveryConfig {
  const given = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
  const c = { ...DEFAULT_DELIVERY_CONFIG, ...given } as ResolvedDeliveryConfig;
  const problems: string[] = [];
  const positiveInt = (name: keyof DeliveryConfig, v: number) => {
    if (!Number.isInteger(v) || v < 1) problems.push(`${name} must be a positive integer (got ${v})`);
  };
  positiveInt('timeoutMs', c.timeoutMs);
  positiveInt('concurrency', c.concurrency);
  positiveInt('maxInFlightPerKey', c.maxInFlightPerKey);
  positiveInt('pollMs', c.pollMs);
  positiveInt('maxBatch', c.maxBatch!);
  positiveInt('slowResponseMs', c.slowResponseMs!);
  if (!(c.jitter >= 0 && c.jitter < 1)) problems.push(`jitter must be in [0, 1) (got ${c.jitter})`);
  if (!Array.isArray(c.schedule) || c.schedule.some((d) => !Number.isFinite(d) || d < 0)) problems.push('schedule must be a list of non-negative delays in ms');
  if (!(c.leaseMarginMs >= 0)) problems.push(`leaseMarginMs must be >= 0 (got ${c.leaseMarginMs})`);
  if (!(c.maxRetryAfterMs >= 0)) problems.push(`maxRetryAfterMs must be >= 0 (got ${c.maxRetryAfterMs})`);
  if (c.tls && Boolean(c.tls.cert) !== Boolean(c.tls.key)) problems.push('tls.cert and tls.key must be given together');
  if (problems.length > 0) throw new Error(`invalid webhook delivery configuration: ${problems.join('; ')}`);
  return c;
}
