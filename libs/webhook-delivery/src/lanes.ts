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
  usedAt: number;
}

/**
 * A lane unused this long is forgotten, and at most MAX_LANES are kept (least recently used goes):
 * every claim carries every lane, and lanes of keys delivered to once stayed for the process's
 * life (100,000 of them made each claim, serialised across workers, take ~0.5 s). A forgotten key
 * starts again at the defaults, as after a restart.
 */
export const LANE_IDLE_MS = 5 * 60_000;
export const MAX_LANES = 10_000;

/**
 * Adaptive lanes, one per Pix key, in this worker: concurrency grows by one per round of fast 2xx
 * answers and halves on a slow answer, a failure or a 429 (additive increase, multiplicative
 * decrease), always between 1 and the ceiling. A 413 halves the key's batch size while its lane lives. The
 * database still counts every worker's leases, so the limit is a cap on the whole fleet's
 * deliveries per key as each worker sees it.
 */
export class Lanes {
  private readonly lanes = new Map<string, Lane>();
  readonly initial: number;

  constructor(
    private readonly settings: LaneSettings,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.initial = Math.min(2, settings.maxInFlight);
  }

  /** What the next claim may take per key. */
  limits(): LaneLimits {
    const keys: string[] = [];
    const inFlight: number[] = [];
    const batch: number[] = [];
    const idleBefore = this.now() - LANE_IDLE_MS;
    for (const [key, lane] of this.lanes) {
      // In last-use order: the idle ones come first.
      if (lane.usedAt < idleBefore) {
        this.lanes.delete(key);
        continue;
      }
      keys.push(key);
      inFlight.push(Math.floor(lane.limit));
      batch.push(lane.batch);
    }
    return { keys, inFlight, batch };
  }

  limitOf(key: string): number {
    return Math.floor(this.lanes.get(key)?.limit ?? this.initial);
  }

  batchOf(key: string): number {
    return this.lanes.get(key)?.batch ?? this.settings.maxBatch;
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

  /** The key's lane, moved to the end (the map is in last-use order). */
  private lane(key: string): Lane {
    const lane = this.lanes.get(key) ?? { limit: this.initial, batch: this.settings.maxBatch, usedAt: 0 };
    lane.usedAt = this.now();
    this.lanes.delete(key);
    this.lanes.set(key, lane);
    if (this.lanes.size > MAX_LANES) this.lanes.delete(this.lanes.keys().next().value!);
    return lane;
  }
}
