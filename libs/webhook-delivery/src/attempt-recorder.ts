import type { Pool } from 'pg';
import { RoundTripSharing } from '@pix/event-store';
import type { ClaimedNotification } from './claim';
import { recordAttempts, type FinishedDelivery, type HandoverLease } from './record-attempts';

/** Results written per statement at most: keeps one statement's parameters and locks small. */
const MAX_GROUP = 256;
/**
 * Statements writing at once: a second one takes what arrives while the first runs, so a result
 * waits for less than one statement's latency. Groups never share a delivery (each is recorded
 * once), so concurrent statements touch disjoint rows.
 */
const WRITERS = 2;

interface Waiting extends FinishedDelivery {
  resolve(applied: boolean): void;
  reject(error: unknown): void;
}

export interface RecorderHooks {
  /** The lease for deliveries taken by handover in the next statement. */
  lease(): HandoverLease;
  /** Deliveries taken by handover (leased to this worker), before the results' callers resume. */
  handedOver(next: ClaimedNotification[]): void;
}

/**
 * Writes the results of POSTs that finish at about the same time together: while statements are
 * running, results queue, and the next statement writes all of them (group commit). One
 * statement and one commit per group instead of one per POST: with 64 POSTs in flight, the
 * database's work per delivery, not its round trips, sets the pace. Until its result is written a
 * delivery keeps its lease, which still counts against the key's lane in the database.
 */
export class AttemptRecorder {
  private queue: Waiting[] = [];
  private readonly sharing = new RoundTripSharing({ hasPending: () => this.queue.length > 0, sendNext: () => this.write(this.queue.splice(0, MAX_GROUP)) }, WRITERS);

  constructor(
    private readonly pool: Pool,
    private readonly hooks: RecorderHooks,
  ) {}

  /** Resolves once written: whether the transition applied (the lease was still ours). */
  record(finished: FinishedDelivery): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...finished, resolve, reject });
      this.sharing.schedule();
    });
  }

  private async write(group: Waiting[]): Promise<void> {
    try {
      const { applied, next } = await recordAttempts(this.pool, group, this.hooks.lease());
      if (next.length > 0) this.hooks.handedOver(next);
      group.forEach((w, i) => w.resolve(applied[i]));
    } catch (error) {
      // The whole group failed to write: each delivery's lease runs out and it is sent again.
      for (const w of group) w.reject(error);
    }
  }
}
