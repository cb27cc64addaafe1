import { CASH_IN_DEAD_LETTER_TOPIC, CASH_IN_TOPIC, type PixRecebidoMessage } from '@pix/contracts';
import { Kafka, logLevel, type Consumer, type Producer } from 'kafkajs';
import type { CashInHandler, CashInPublisher } from './cash-in-bus';
import { consumeCashIn } from './consume-cash-in';

/**
 * kafkajs's retries, each wait capped at 3 s (its default grows to 30 s), about 50 s in all: a
 * consumer rides out a broker restart with its group membership intact (a consumer that crashes
 * meanwhile rejoins as a new member, which waits for the old member's session to time out) and
 * resumes within seconds of the broker's return. Past that, kafkajs restarts it anyway.
 */
export const KAFKA_RETRY = { retries: 20, initialRetryTime: 300, maxRetryTime: 3000 };

/**
 * Consumer group timings. A consumer that crashed while the broker was down (kafkajs restarts it)
 * rejoins as a new member, and the group waits for the old member's session to expire before it
 * hands out partitions again: 15 s instead of kafkajs's 30 s bounds that stall. Handlers that
 * retry (database down) send heartbeats meanwhile, so a slow message does not cost the membership.
 */
export const CONSUMER_TIMEOUTS = { sessionTimeout: 15_000, heartbeatInterval: 1500 };

/**
 * For a client that publishes while a request waits (the sandbox payer): with the broker down the
 * send fails within seconds and the request is answered 503, rather than held for a minute.
 * Connecting uses the client's retry, so this must be the client's, not only the producer's.
 */
export const KAFKA_PUBLISH_RETRY = { retries: 5, initialRetryTime: 300, maxRetryTime: 2000 };

export function createKafka(brokers: string[], clientId: string, retry = KAFKA_RETRY): Kafka {
  return new Kafka({ clientId, brokers, logLevel: logLevel.ERROR, retry });
}

/** Creates the cash-in topic and its dead-letter topic when missing (idempotent). */
export async function ensureCashInTopics(kafka: Kafka, partitions = 6): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const wanted = [CASH_IN_TOPIC, CASH_IN_DEAD_LETTER_TOPIC].filter((t) => !existing.has(t));
    if (wanted.length > 0) await admin.createTopics({ waitForLeaders: true, topics: wanted.map((topic) => ({ topic, numPartitions: partitions })) });
  } finally {
    await admin.disconnect();
  }
}

/** Key = the receiver's Pix key, so one key's cash-ins stay in order; acks from all replicas. */
export class KafkaCashInPublisher implements CashInPublisher {
  private readonly producer: Producer;

  constructor(kafka: Kafka) {
    // Give it a client made with KAFKA_PUBLISH_RETRY when a request waits for the send.
    this.producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  }

  connect(): Promise<void> {
    return this.producer.connect();
  }

  async publish(message: PixRecebidoMessage): Promise<void> {
    await this.producer.send({
      topic: CASH_IN_TOPIC,
      acks: -1,
      messages: [{ key: message.chave, value: JSON.stringify(message), headers: { 'content-type': 'application/json' } }],
    });
  }

  disconnect(): Promise<void> {
    return this.producer.disconnect();
  }
}

/** Where a consumer is: readiness probes report it. */
export type ConsumerState = 'stopped' | 'joining' | 'joined';

/**
 * A consumer group on the cash-in topic (kafkajs), validating every message. `start` waits for
 * the group to be joined, which after a crash of a member can take as long as its session
 * timeout; `startInBackground` does not wait and keeps trying until it has joined or is stopped.
 */
export class KafkaCashInConsumer {
  private consumer?: Consumer;
  private deadLetters?: Producer;
  private stopping = false;
  state: ConsumerState = 'stopped';

  constructor(
    private readonly kafka: Kafka,
    readonly groupId: string,
    private readonly handler: CashInHandler,
    private readonly logger: { log(m: string): void; error(m: string): void },
  ) {}

  async start(): Promise<void> {
    this.state = 'joining';
    this.deadLetters = this.kafka.producer();
    await this.deadLetters.connect();
    this.consumer = this.kafka.consumer({ groupId: this.groupId, ...CONSUMER_TIMEOUTS });
    // kafkajs rejoins by itself after a broker outage or rebalance; the state follows it.
    this.consumer.on(this.consumer.events.GROUP_JOIN, () => {
      if (this.state !== 'joined') this.logger.log(`consumer group ${this.groupId}: joined`);
      this.state = 'joined';
    });
    const consumer = this.consumer;
    this.consumer.on(this.consumer.events.CRASH, (e) => {
      this.state = this.stopping ? 'stopped' : 'joining';
      if (this.stopping) return;
      this.logger.error(`consumer group ${this.groupId}: ${e.payload.error.message}; ${e.payload.restart ? 'kafkajs restarts it' : 'starting it again'}`);
      // kafkajs gives up for good after a non-retriable error: start a fresh consumer (and DLT producer).
      if (!e.payload.restart && this.consumer === consumer) void this.deadLetters?.disconnect().catch(() => undefined).then(() => this.startInBackground());
    });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: CASH_IN_TOPIC, fromBeginning: true });
    const deps = { deadLetters: this.deadLetters, consumerName: this.groupId, logger: this.logger, stopped: () => this.stopping };
    await this.consumer.run({
      eachMessage: ({ topic, partition, message, heartbeat }) => consumeCashIn({ topic, partition, offset: message.offset, key: message.key, value: message.value, heartbeat }, this.handler, deps),
    });
  }

  /** Resolves at once; a failed start (broker down) is retried with capped backoff until `stop`. */
  startInBackground(): void {
    void (async () => {
      for (let delay = 500; !this.stopping; delay = Math.min(delay * 2, 10_000)) {
        try {
          await this.start();
          return;
        } catch (error) {
          this.logger.error(`consumer group ${this.groupId}: cannot start (${(error as Error).message}); retrying in ${delay} ms`);
          await this.consumer?.disconnect().catch(() => undefined);
          await this.deadLetters?.disconnect().catch(() => undefined);
          await new Promise((r) => setTimeout(r, delay));
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.state = 'stopped';
    await this.consumer?.disconnect();
    await this.deadLetters?.disconnect();
  }
}
