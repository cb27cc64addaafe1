export interface PartitionOffset {
  topic: string;
  partition: number;
  /** The next offset to consume (last handled + 1), as kafkajs commits it. */
  offset: string;
}

/**
 * Offsets committed beside the next fetch rather than before it, and at most one commit per
 * `minIntervalMs`: `add` queues a handled slice's offset; offsets that arrive while a commit is
 * under way or the interval runs go together in the next commit, newest per partition. Every
 * commit is a broker request the cash-in producer's requests queue behind, one per fetched batch
 * before. A commit that fails (a rebalance, the broker away) keeps its offsets for the next one,
 * unless the partition has a newer one or the group has rebalanced since (`rebalanced`: the
 * partition may be another member's now, who must not see its offset moved back); it is not
 * retried at once, which would spin through a rebalance. Until a later commit lands, a restart
 * reads those messages again (at most about the interval's worth after a crash), which handlers
 * take idempotently, as they must for any redelivery. `closing` commits what is queued at once,
 * and every later `add` too, so a clean stop leaves nothing to read again.
 */
export class BackgroundCommits {
  private readonly pending = new Map<string, PartitionOffset>();
  private committing?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private lastCommitAt = -Infinity;
  /** After a failed commit: nothing is sent again until the next `add` (or `closing`). */
  private held = false;
  private generation = 0;

  constructor(
    private readonly commit: (offsets: PartitionOffset[]) => Promise<void>,
    private readonly onFailure: (error: Error) => void,
    private minIntervalMs = 0,
  ) {}

  /** A slice up to `lastOffset` is handled: its offset goes into the next commit. */
  add(topic: string, partition: number, lastOffset: string): void {
    this.pending.set(`${topic}/${partition}`, { topic, partition, offset: (BigInt(lastOffset) + 1n).toString() });
    this.held = false;
    this.schedule();
  }

  /** The group (re)joined: offsets handled before are not committed any more. */
  rebalanced(): void {
    this.generation += 1;
    this.pending.clear();
  }

  /** The consumer is about to stop: what is queued is committed now, and every later offset at once. */
  closing(): void {
    this.minIntervalMs = 0;
    this.held = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule();
  }

  /** Resolves once no commit is under way (one that ends may start the next with what queued meanwhile). */
  async settled(): Promise<void> {
    while (this.committing) await this.committing;
  }

  private schedule(): void {
    if (this.committing || this.timer || this.held || this.pending.size === 0) return;
    const wait = this.lastCommitAt + this.minIntervalMs - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, wait);
      return;
    }
    this.committing = this.commitPending().finally(() => {
      this.committing = undefined;
      this.schedule();
    });
  }

  private async commitPending(): Promise<void> {
    const offsets = [...this.pending.values()];
    const generation = this.generation;
    this.pending.clear();
    this.lastCommitAt = performance.now();
    try {
      await this.commit(offsets);
    } catch (error) {
      if (generation === this.generation) {
        for (const o of offsets) if (!this.pending.has(`${o.topic}/${o.partition}`)) this.pending.set(`${o.topic}/${o.partition}`, o);
      }
      this.onFailure(error as Error);
      this.held = true;
    }
  }
}
