import type { Admin } from 'kafkajs';
import { createKafka } from './kafka-client';
import { defaultKafkaLogs, type KafkaLogs } from './kafka-logs';

/**
 * Whether the Kafka cluster answers, for readiness probes: a connected consumer says nothing
 * while the broker is down (kafkajs retries quietly), so a probe asks the cluster itself. One
 * answer serves the probes of `cacheMs`; a probe never waits longer than `timeoutMs`.
 */
export class BrokerProbe {
  private admin: Admin | undefined;
  private last: { at: number; result: Promise<string | undefined> } | undefined;

  constructor(
    private readonly brokers: string[],
    private readonly options: { cacheMs: number; timeoutMs: number } = { cacheMs: 2000, timeoutMs: 1500 },
    private readonly now: () => number = Date.now,
    private readonly logs: KafkaLogs = defaultKafkaLogs,
  ) {}

  /** undefined when the cluster answered; else why it did not (no addresses: the probe is open). */
  check(): Promise<string | undefined> {
    if (this.last && this.now() - this.last.at < this.options.cacheMs) return this.last.result;
    const result = this.ask();
    this.last = { at: this.now(), result };
    return result;
  }

  async close(): Promise<void> {
    await this.admin?.disconnect().catch(() => undefined);
    this.admin = undefined;
  }

  private async ask(): Promise<string | undefined> {
    // No retries: the probe itself is retried by whoever polls readiness.
    this.admin ??= createKafka(this.brokers, 'pix-readiness', { retries: 0, initialRetryTime: 100, maxRetryTime: 500 }, this.logs).admin();
    const admin = this.admin;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer within ${this.options.timeoutMs} ms`), this.options.timeoutMs)));
    const answer = (async () => {
      await admin.connect();
      await admin.describeCluster();
      return undefined;
    })().catch((error: Error) => error.message || 'unreachable');
    const outcome = await Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
    if (outcome !== undefined) {
      // A fresh admin next time: kafkajs keeps a broken connection's state otherwise.
      this.admin = undefined;
      void admin.disconnect().catch(() => undefined);
    }
    return outcome;
  }
}
