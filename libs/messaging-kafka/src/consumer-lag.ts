import { CASH_IN_TOPIC } from '@pix/contracts';
import type { Admin, Kafka } from 'kafkajs';

/** Messages a consumer group has yet to read on one partition. */
export interface PartitionLag {
  group: string;
  topic: string;
  partition: number;
  lag: number;
}

/**
 * Polls the lag of consumer groups on the cash-in topic (end offset minus committed offset per
 * partition) with its own admin client, so a metrics scrape never waits on a broker. A failed
 * poll forgets the last values and reconnects on the next one; values older than two polls are
 * not served either (a poll against a stopped broker retries for about a minute before it fails).
 * A lag nobody could read is absent, never 0: the broker down showed 0 for minutes (an audit).
 */
export class ConsumerLagPoller {
  private admin?: Admin;
  private timer?: NodeJS.Timeout;
  private latest: { at: number; lags: PartitionLag[] } = { at: -Infinity, lags: [] };
  private polling = false;

  constructor(
    private readonly kafka: Kafka,
    private readonly groups: string[],
    private readonly everyMs = 15_000,
    private readonly topic = CASH_IN_TOPIC,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    if (this.timer) return;
    void this.poll();
    this.timer = setInterval(() => void this.poll(), this.everyMs);
    this.timer.unref();
  }

  /** The last values read: empty until a poll succeeds, after one fails, and once two polls' time has passed without an answer. */
  lags(): PartitionLag[] {
    return this.now() - this.latest.at <= 2 * this.everyMs ? this.latest.lags : [];
  }

  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      if (!this.admin) {
        const admin = this.kafka.admin();
        await admin.connect();
        this.admin = admin;
      }
      const ends = await this.admin.fetchTopicOffsets(this.topic);
      const lags: PartitionLag[] = [];
      for (const group of this.groups) {
        const [committed] = await this.admin.fetchOffsets({ groupId: group, topics: [this.topic] });
        for (const end of ends) {
          const offset = Number(committed?.partitions.find((p) => p.partition === end.partition)?.offset ?? -1);
          // -1: nothing committed yet; the group (fromBeginning) has the whole partition to read.
          const from = offset < 0 ? Number(end.low) : offset;
          lags.push({ group, topic: this.topic, partition: end.partition, lag: Math.max(0, Number(end.high) - from) });
        }
      }
      this.latest = { at: this.now(), lags };
    } catch {
      this.latest = { at: -Infinity, lags: [] };
      const admin = this.admin;
      this.admin = undefined;
      await admin?.disconnect().catch(() => undefined);
    } finally {
      this.polling = false;
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.admin?.disconnect().catch(() => undefined);
    this.admin = undefined;
  }
}
