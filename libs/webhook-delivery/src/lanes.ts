import type { LaneLimits } from './claim';

export interface LaneSettings {
  /** Ceiling of deliveries in flight per key (WEBHOOK_MAX_IN_FLIGHT_PER_KEY). */
  maxInFlight: number;
  /** Ceiling of notifications per POST (WEBHOOK_MAX_BATCH). */
  maxBatch: number;
  /** An answer slower than this counts as the receiver slowing down. */
  slowMs: number;
}

interface Lane {
  /** Fractional so growth is one slot per round of answers (AIMD's +1 per round trip). */
  limit: number;
  /** Learned from 413s: the largest batch this receiver is sent. */
  batch: number;
}

/**
 * Adaptive lanes, one per Pix key, in this worker: concurrency grows by one per round of fast 2xx
 * answers and halves on a slow answer, a failure or a 429 (additive increase, multiplicative
 * decrease), always between 1 and the ceiling. A 413 halves the key's batch size for good. The
 * database still counts every worker's leases, so the limit is a cap on the whole fleet's
 * deliveries per key as each worker sees it.
 */
export class Lanes {
  private readonly lanes = new Map<string, Lane>();
  readonly initial: number;

  constructor(private readonly settings: LaneSettings) {
    this.initial = Math.min(2, settings.maxInFlight);
  }

  /** What the next claim may take per key. */
  limits(): LaneLimits {
    const keys: string[] = [];
    const inFlight: number[] = [];
    const batch: number[] = [];
    for (const [key, lane] of this.lanes) {
      keys.push(key);
      inFlight.push(Math.floor(lane.limit));
      batch.push(lane.batch);
    }
    return { keys, inFlight, batch };
  }

  limitOf(key: string): number {
    return Math.floor(this.lane(key).limit);
  }

  batchOf(key: string): number {
    return this.lane(key).batch;
  }

  /** One answer (or failure) of a delivery to `key`. */
  observe(key: string, result: { statusCode: number | null; latencyMs: number }): void {
    const lane = this.lane(key);
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    if (ok && result.latencyMs <= this.settings.slowMs) lane.limit = Math.min(this.settings.maxInFlight, lane.limit + 1 / Math.floor(lane.limit));
    else if (result.statusCode !== 413) lane.limit = Math.max(1, lane.limit / 2);
    // A lane back at the defaults is forgotten, so the map holds only keys that differ.
    if (lane.limit === this.initial && lane.batch === this.settings.maxBatch) this.lanes.delete(key);
  }

  /** The receiver answered 413 to a batch of `size`: later batches are at most half of it. */
  tooLarge(key: string, size: number): void {
    const lane = this.lane(key);
    lane.batch = Math.max(1, Math.min(lane.batch, Math.floor(size / 2)));
  }

  private lane(key: string): Lane {
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = { limit: this.initial, batch: this.settings.maxBatch }));
    return lane;
  }
}
