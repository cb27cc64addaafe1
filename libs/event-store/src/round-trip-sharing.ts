/** What a sharer sends: whether anything waits, and how to send the next batch of it. */
export interface SharedSends {
  hasPending(): boolean;
  /** Takes the next batch off the queue and sends it; settles when its round trip is over. */
  sendNext(): Promise<void>;
}

/**
 * Natural batching for round trips to PostgreSQL: what callers queued while the loop was busy
 * (the same turn, or while `maxInFlight` sends are out) goes together at the end of the turn or
 * when a send returns. A lone caller's send goes at the end of its own turn, so one client
 * waits no longer; under load each round trip carries many callers' work (group commit, shared
 * reads). Call `schedule()` after queueing.
 */
export class RoundTripSharing {
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly sends: SharedSends, private readonly maxInFlight: number) {}

  schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || !this.sends.hasPending()) return;
    this.scheduled = true;
    // After this turn's other callers have queued, not before: they share the round trip.
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < this.maxInFlight && this.sends.hasPending()) {
        this.inFlight++;
        void this.sends
          .sendNext()
          .catch(() => undefined) // a sender answers its own callers; nothing may stop the queue
          .finally(() => {
            this.inFlight--;
            this.schedule();
          });
      }
    });
  }
}

interface Waiter<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

export interface SharedLookupsOptions<V> {
  /** Statements in flight at once (default 4). */
  maxInFlight?: number;
  /** Keys per statement (default 64). */
  maxBatch?: number;
  /** A second caller of the same key in one batch gets this copy (default: the same value). */
  copy?: (value: V) => V;
}

/**
 * Lookups by key through RoundTripSharing: the keys asked while the loop is busy go to `fetch`
 * together (each key once), and every caller gets its key's value, or undefined when `fetch`
 * found none; a failed fetch fails each of its callers.
 */
export class SharedLookups<V> {
  private readonly pending = new Map<string, Waiter<V>[]>();
  private readonly sharing: RoundTripSharing;
  private readonly maxBatch: number;

  constructor(private readonly fetch: (keys: string[]) => Promise<Map<string, V>>, private readonly options: SharedLookupsOptions<V> = {}) {
    this.maxBatch = options.maxBatch ?? 64;
    this.sharing = new RoundTripSharing({ hasPending: () => this.pending.size > 0, sendNext: () => this.send(this.take()) }, options.maxInFlight ?? 4);
  }

  get(key: string): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.pending.set(key, [{ resolve, reject }]);
      this.sharing.schedule();
    });
  }

  private take(): Map<string, Waiter<V>[]> {
    const batch = new Map<string, Waiter<V>[]>();
    for (const [key, waiters] of this.pending) {
      if (batch.size >= this.maxBatch) break;
      batch.set(key, waiters);
      this.pending.delete(key);
    }
    return batch;
  }

  private async send(batch: Map<string, Waiter<V>[]>): Promise<void> {
    try {
      const found = await this.fetch([...batch.keys()]);
      for (const [key, waiters] of batch) {
        const value = found.get(key);
        waiters.forEach((w, i) => w.resolve(i > 0 && value !== undefined && this.options.copy ? this.options.copy(value) : value));
      }
    } catch (error) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
    }
  }
}
