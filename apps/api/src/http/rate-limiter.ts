/** A verdict: allowed, or refused with how long until one more request would be. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

export interface RateLimiterOptions {
  /** Tokens added per second (the sustained rate); 0 disables limiting. */
  perSecond: number;
  /** Bucket capacity: how many requests may arrive at once after a quiet spell. */
  burst: number;
  /** Most buckets kept; past it the least recently used are dropped (bounded memory). */
  maxKeys?: number;
  /** Milliseconds from a monotonic source; injected so tests control time. */
  now: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets per key. Memory stays bounded: a bucket that has refilled is the same as no
 * bucket, so idle ones are dropped as they are met (the Map is kept in last-use order), and past
 * `maxKeys` the least recently used goes even if not full (that key merely starts afresh).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxKeys: number;

  constructor(private readonly options: RateLimiterOptions) {
    this.maxKeys = options.maxKeys ?? 100_000;
  }

  get enabled(): boolean {
    return this.options.perSecond > 0;
  }

  /** Buckets currently held (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }

  /** Takes one token for `key`. */
  take(key: string): RateDecision {
    if (!this.enabled) return { allowed: true };
    const now = this.options.now();
    this.evictIdle(now);
    const bucket = this.current(key, now);
    this.buckets.delete(key); // re-inserted last: the Map's order is last use
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.evictOverflow();
      return { allowed: true };
    }
    this.evictOverflow();
    return { allowed: false, retryAfterMs: Math.ceil(((1 - bucket.tokens) * 1000) / this.options.perSecond) };
  }

  /** Whether `needed` more `take`s would all be allowed now, without taking anything. */
  peek(key: string, needed = 1): RateDecision {
    if (!this.enabled) return { allowed: true };
    const bucket = this.buckets.get(key);
    const tokens = bucket ? this.refilled(bucket, this.options.now()) : this.options.burst;
    return tokens >= needed ? { allowed: true } : { allowed: false, retryAfterMs: Math.ceil(((needed - tokens) * 1000) / this.options.perSecond) };
  }

  private current(key: string, now: number): Bucket {
    const bucket = this.buckets.get(key);
    if (!bucket) return { tokens: this.options.burst, at: now };
    bucket.tokens = this.refilled(bucket, now);
    bucket.at = now;
    return bucket;
  }

  private refilled(bucket: Bucket, now: number): number {
    return Math.min(this.options.burst, bucket.tokens + (Math.max(0, now - bucket.at) * this.options.perSecond) / 1000);
  }

  /** Drops the oldest-used buckets that have refilled; a couple per call keeps the cost constant. */
  private evictIdle(now: number): void {
    let checked = 0;
    for (const [key, bucket] of this.buckets) {
      if (checked++ >= 2 || this.refilled(bucket, now) < this.options.burst) return;
      this.buckets.delete(key);
    }
  }

  private evictOverflow(): void {
    while (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
  }
}
