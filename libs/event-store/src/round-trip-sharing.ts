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
