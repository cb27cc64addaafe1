export interface PartitionOffset {
  topic: string;
  partition: number;
  /** The next offset to consume (last handled + 1), as kafkajs commits it. */
  offset: string;
}

/**
 * Offsets committed beside the next fetch rather than before it: `add` queues a handled slice's
 * offset and starts a commit unless one is under way; offsets that arrive meanwhile go together
 * in the next commit, newest per partition. A commit that fails (a rebalance, the broker away)
 * keeps its offsets for the next one, unless the partition has a newer one or the group has
 * rebalanced since (`rebalanced`: the partition may be another member's now, who must not see
 * its offset moved back). It is not retried at once, which would spin through a rebalance. Until
 * a later commit lands, a restart reads those messages again, which handlers take idempotently,
 * as they must for any redelivery.
 */
export class BackgroundCommits {
  private readonly pending = new Map<string, PartitionOffset>();
  private committing?: Promise<void>;
  private generation = 0;

  constructor(
    private readonly commit: (offsets: PartitionOffset[]) => Promise<void>,
    private readonly onFailure: (error: Error) => void,
  ) {}

  /** A slice up to `lastOffset` is handled: its offset goes into the next commit. */
  add(topic: string, partition: number, lastOffset: string): void {
    this.pending.set(`${topic}/${partition}`, { topic, partition, offset: (BigInt(lastOffset) + 1n).toString() });
    if (this.committing) return;
    this.committing = this.drain().finally(() => (this.committing = undefined));
  }

  /** The group (re)joined: offsets handled before are not committed any more. */
  rebalanced(): void {
    this.generation += 1;
    this.pending.clear();
  }

  /** Resolves once the commit under way, if any, has ended. */
  async settled(): Promise<void> {
    await this.committing;
  }

  private async drain(): Promise<void> {
    while (this.pending.size > 0) {
      const offsets = [...this.pending.values()];
      const generation = this.generation;
      this.pending.clear();
      try {
        await this.commit(offsets);
      } catch (error) {
        if (generation === this.generation) {
          for (const o of offsets) if (!this.pending.has(`${o.topic}/${o.partition}`)) this.pending.set(`${o.topic}/${o.partition}`, o);
        }
        this.onFailure(error as Error);
        return;
      }
    }
  }
}
