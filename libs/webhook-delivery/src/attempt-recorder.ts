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

/**
 * Waits before a group whose statement failed is written again (the last one repeats). A database
 * restart or a cut connection used to cost each delivery of the group its answer: the receiver had
 * taken it, the log missed that attempt, and it was sent again when its lease ran out (45 s by
 * default; outage audit, 2026-11-27).
 */
const REWRITE_DELAYS_MS = [250, 500, 1000, 2000];
/** A result is written again only while its lease has this long to run; past it, the lease decides. */
const REWRITE_LEASE_MARGIN_MS = 2000;

interface Waiting extends FinishedDelivery {
  resolve(applied: boolean): void;
  reject(error: unknown): void;
  /** Statements of this result that failed so far. */
  failures: number;
}

export interface RecorderHooks {
  /** The lease for deliveries taken by handover in the next statement. */
  lease(): HandoverLease;
  /** Deliveries taken by handover (leased to this worker), before the results' callers resume. */
  handedOver(next: ClaimedNotification[]): void;
  /** The worker's clock (leases are on it). */
  now(): Date;
  /** A group's statement failed; its results are written again in `retryInMs` (those whose leases last). */
  writeFailed(count: number, error: Error, retryInMs: number): void;
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
      this.queue.push({ ...finished, resolve, reject, failures: 0 });
      this.sharing.schedule();
    });
  }

  private async write(group: Waiting[]): Promise<void> {
    try {
      const { applied, next } = await recordAttempts(this.pool, group, this.hooks.lease());
      if (next.length > 0) this.hooks.handedOver(next);
      group.forEach((w, i) => w.resolve(applied[i]));
    } catch (error) {
      // The whole group failed to write. Written again while its leases last (the statement checks
      // each lease, so a takeover meanwhile still wins); a result whose lease is ending is left to
      // it: the delivery is sent again when it ends.
      const now = this.hooks.now().getTime();
      const again = group.filter((w) => w.claim.leaseUntil.getTime() - now > REWRITE_LEASE_MARGIN_MS);
      for (const w of group) if (!again.includes(w)) w.reject(error);
      if (again.length === 0) return;
      const failures = Math.max(...again.map((w) => (w.failures += 1)));
      const delay = REWRITE_DELAYS_MS[Math.min(failures, REWRITE_DELAYS_MS.length) - 1];
      if (failures === 1) this.hooks.writeFailed(again.length, error as Error, delay);
      setTimeout(() => {
        this.queue.unshift(...again);
        this.sharing.schedule();
      }, delay);
    }
  }
}
