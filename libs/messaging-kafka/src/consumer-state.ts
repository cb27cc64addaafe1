/** Where a consumer group is: readiness probes report it. */
export type ConsumerState = 'stopped' | 'joining' | 'joined';

/** What readiness and metrics show: the state, or `stuck joining` once joining has lasted past the bound. */
export type ReportedConsumerState = ConsumerState | 'stuck joining';

/**
 * A group still joining after this long is reported stuck (readiness body, pix_dependency_up): a
 * broker restarted empty (the cash-in topic gone) kept a group `joining` with status ok for ever.
 * A join in a healthy cluster takes seconds; after a crash, the old member's session (15 s) more.
 */
export const STUCK_JOINING_MS = 60_000;

/**
 * A consumer group's state and since when it has been trying to join. A group that joins and
 * crashes again within the bound (the topic gone: joined, then "does not host this
 * topic-partition" at the first fetch) is still the same attempt, so it too is reported stuck.
 */
export class ConsumerStateClock {
  private current: ConsumerState = 'stopped';
  private joiningSince = 0;
  private joinedAt = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly boundMs = STUCK_JOINING_MS,
  ) {}

  get state(): ConsumerState {
    return this.current;
  }

  enter(state: ConsumerState): void {
    const now = this.now();
    const steadilyJoined = this.current === 'joined' && now - this.joinedAt >= this.boundMs;
    if (state === 'joining' && (this.current === 'stopped' || steadilyJoined)) this.joiningSince = now;
    if (state === 'joined' && this.current !== 'joined') this.joinedAt = now;
    this.current = state;
  }

  reported(): ReportedConsumerState {
    return this.current === 'joining' && this.now() - this.joiningSince > this.boundMs ? 'stuck joining' : this.current;
  }
}
