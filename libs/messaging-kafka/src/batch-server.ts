import { Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import type { Consumer, EachBatchPayload, Kafka, Producer } from 'kafkajs';
import { lastValueFrom } from 'rxjs';
import { BackgroundCommits, type PartitionOffset } from './background-commits';
import { KafkaBatchContext } from './batch-context';
import { ConsumerStateClock, type ConsumerState, type ReportedConsumerState } from './consumer-state';
import { CONSUMER_TIMEOUTS } from './kafka-client';
import { RepeatedLines } from './kafka-logs';
import { handleWithQuarantine } from './quarantine';
import { retrying } from './retrying';
import { deadLetterOf, storeDeadLetters, validateBatch, type DeadLetter, type TopicContract } from './validated-batch';

/**
 * At most one offset commit per this many ms per consumer (BackgroundCommits): a commit per
 * fetched batch was ~100 broker requests a second per group at 16 cash-ins in flight. A crash
 * replays at most about this much (handlers are idempotent); a clean stop replays nothing.
 */
const COMMIT_INTERVAL_MS = 100;

/** What the on-call engineer does next: until then this group does not settle (API) or notify (notifier) it. */
const DEAD_LETTER_HINT = '; this group skips it until it is replayed (`npm run dead-letters -- list`, fix the cause, then `replay <id>`)';

/** How long a consumer that crashed waits before it starts again, after `crashes` such in a row. */
export const restartDelay = (crashes: number): number => Math.min(500 * 2 ** crashes, 30_000);

export interface KafkaBatchServerOptions {
  /** Only `@EventPattern(topic, transportId)` handlers are this server's (several may share a process). */
  transportId: symbol;
  /** A client made with KAFKA_RETRY. */
  kafka: Kafka;
  groupId: string;
  /** Every topic this server may consume, with its contract; it subscribes to those with a handler. */
  topics: Record<string, TopicContract>;
  /**
   * `warn` (else `error`): a dead letter stored without its value, too large for the dead-letter
   * topic. `correlationId`: the message's own, on the line that reports it dead-lettered (ADR 17).
   */
  logger: { log(m: string): void; error(m: string, correlationId?: string): void; warn?(m: string): void };
  /** Run before each (re)join, e.g. creating the topics; a failure is retried with the join. */
  prepare?: () => Promise<void>;
  /** Most messages handed to one handler call (a fetched batch is cut in slices of this size). */
  maxBatch?: number;
  /**
   * Partitions handled at once (kafkajs `partitionsConsumedConcurrently`; default 3, half the
   * cash-in topic's 6): one partition's batch no longer waits for another's to be stored.
   * Order within a partition (so per key) is kept.
   */
  partitionsConcurrently?: number;
  /**
   * Whether the handlers' dependencies answer now. With it, a message the handler keeps failing
   * on while they do is dead-lettered (quarantine.ts); without it, it is retried forever.
   */
  healthy?: () => Promise<boolean>;
}

/** Why a message went to the dead-letter topic: the contract refused it, or the handler kept failing on it. */
export type DeadLetterKind = 'invalid' | 'quarantined';

/**
 * A Nest microservice transport on kafkajs that consumes in batches: the `@EventPattern(topic)`
 * handler gets the valid messages of a fetched batch, parsed by the topic's contract, in one
 * call; invalid ones go to the dead-letter topic first. A batch that fails is retried (with
 * backoff and heartbeats) until it succeeds, and only then are its offsets resolved and
 * committed; on shutdown it is left for redelivery, so handlers must be idempotent.
 * `listen` returns at once: the group joins in the background with capped backoff (HTTP never
 * waits for Kafka), and a consumer that crashes is started again after a growing pause.
 */
export class KafkaBatchServer extends Server implements CustomTransportStrategy {
  private readonly clock = new ConsumerStateClock();
  /** A group that keeps failing the same way says so once a minute, with the count (it said it every 300 ms). */
  private readonly failures = new RepeatedLines();
  private consumer?: Consumer;
  private deadLetters?: Producer;
  private stopping = false;
  /** Consumers kafkajs gave up on since a batch was last handled: each restart waits longer. */
  private crashes = 0;
  /** The consumer's offsets, committed beside its next fetch. */
  private commits?: BackgroundCommits;
  /**
   * Each subscribed topic's handler, looked up once at start: Nest's lookup JSON.parses the
   * pattern first and a plain topic name makes that throw, an exception per batch (0.5 s of the
   * API's CPU over the cash-in bench, where most batches hold one or two messages).
   */
  private handlers = new Map<string, MessageHandler>();
  /**
   * Told after dead letters are stored (the apps count them in a metric): a refused cash-in is
   * money received that settles and notifies nothing, and a log line alone raises no alert.
   */
  onDeadLetters?: (kind: DeadLetterKind, count: number) => void;

  constructor(private readonly options: KafkaBatchServerOptions) {
    super();
    this.transportId = options.transportId;
  }

  get groupId(): string {
    return this.options.groupId;
  }

  get state(): ConsumerState {
    return this.clock.state;
  }

  /** The state, or `stuck joining` once joining has lasted past STUCK_JOINING_MS (readiness, metrics). */
  reportedState(): ReportedConsumerState {
    return this.clock.reported();
  }

  listen(callback: () => void): void {
    if (this.state !== 'stopped') return callback(); // already started (idempotent)
    this.stopping = false;
    this.joinInBackground();
    callback();
  }

  async close(): Promise<void> {
    this.stopping = true;
    this.clock.enter('stopped');
    // kafkajs waits for the batch in hand; a retrying one gives up at once (not committed).
    await this.disconnect();
  }

  on(): never {
    throw new Error('KafkaBatchServer: use `state` and the logs, not events');
  }

  unwrap<T>(): T {
    return [this.consumer, this.deadLetters] as T;
  }

  private joinInBackground(): void {
    this.clock.enter('joining');
    void (async () => {
      for (let delay = 500; !this.stopping; delay = Math.min(delay * 2, 10_000)) {
        try {
          await this.start();
          return;
        } catch (error) {
          const line = this.failures.admit(`start ${(error as Error).message}`, `consumer group ${this.groupId}: cannot start (${(error as Error).message}); retrying in ${delay} ms`);
          if (line) this.options.logger.error(line);
          await this.disconnect();
          await new Promise((r) => setTimeout(r, delay));
        }
      }
    })();
  }

  private async start(): Promise<void> {
    const { kafka, groupId, logger } = this.options;
    this.handlers = new Map();
    for (const topic of Object.keys(this.options.topics)) {
      const handler = this.getHandlerByPattern(topic);
      if (handler) this.handlers.set(topic, handler);
    }
    const topics = [...this.handlers.keys()];
    if (topics.length === 0) throw new Error(`no @EventPattern handler for ${Object.keys(this.options.topics).join(', ')} on this transport`);
    await this.options.prepare?.();
    const deadLetters = (this.deadLetters = kafka.producer());
    await deadLetters.connect();
    // kafkajs restarts a consumer after a retriable crash by itself, 300 ms later every time (a
    // topic gone: one crash and one error line every 300 ms, for ever); here every crash takes
    // the path below, with its growing pause and the topics created again (`prepare`).
    const retry = { restartOnFailure: async () => false };
    const consumer = (this.consumer = kafka.consumer({ groupId, ...CONSUMER_TIMEOUTS, retry }));
    // Through the batch's own commit function: kafkajs's `consumer.commitOffsets` silently
    // commits nothing once a stop has begun, which is when the batch in hand commits last.
    let commitVia: EachBatchPayload['commitOffsetsIfNecessary'] | undefined;
    const commits = (this.commits = new BackgroundCommits(
      (offsets) => commitVia!(byTopic(offsets)),
      // Expected during a rebalance (the partition may be another member's now): not an error.
      (error) => logger.log(`consumer group ${groupId}: offset commit failed (${error.message}); the next commit carries it`),
      COMMIT_INTERVAL_MS,
    ));
    // kafkajs rejoins by itself after a broker outage or rebalance; the state follows it.
    consumer.on(consumer.events.GROUP_JOIN, () => {
      commits.rebalanced();
      if (this.state !== 'joined') logger.log(`consumer group ${groupId}: joined`);
      this.clock.enter('joined');
    });
    consumer.on(consumer.events.CRASH, (e) => {
      if (this.stopping) return;
      this.clock.enter('joining');
      const delay = e.payload.restart ? 0 : restartDelay(this.crashes++);
      const line = this.failures.admit(`crash ${e.payload.error.message}`, `consumer group ${groupId}: ${e.payload.error.message}; ${e.payload.restart ? 'kafkajs restarts it' : `starting it again in ${delay} ms`}`);
      if (line) logger.error(line);
      // Every crash (retriable ones too, see `retry` above): a fresh consumer (and DLT producer),
      // after a pause that grows while it keeps failing (a batch it cannot decode failed ~100
      // times a second, each restart at once: an audit, 2026-11-27).
      if (!e.payload.restart && this.consumer === consumer)
        void this.disconnect()
          .then(() => new Promise((r) => setTimeout(r, delay)))
          .then(() => this.stopping || this.joinInBackground());
    });
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    // Offsets are committed here, beside the next fetch rather than before it (BackgroundCommits):
    // kafkajs's own commit after each batch held every partition's next fetch for a round trip.
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.partitionsConcurrently ?? 3,
      eachBatch: (payload) => ((commitVia = payload.commitOffsetsIfNecessary), this.onBatch(payload, deadLetters, commits)),
    });
  }

  /** Slices of the batch in order: dead letters stored, then the handler's effect, then the offset. */
  private async onBatch(payload: EachBatchPayload, deadLetters: Producer, commits: BackgroundCommits): Promise<void> {
    const { batch, resolveOffset, heartbeat, isRunning, isStale } = payload;
    const { topic, partition } = batch;
    const handler = this.handlers.get(topic);
    const contract = this.options.topics[topic];
    if (!handler || !contract) throw new Error(`no handler for ${topic}`); // not subscribed without one
    const max = this.options.maxBatch ?? 500;
    const deps = { logger: this.options.logger, stopped: () => this.stopping, heartbeat };
    const consumerName = this.groupId;
    const { logger } = this.options;
    const warn = (line: string) => (logger.warn ?? logger.error).call(logger, `${consumerName}: ${line}`);
    for (let i = 0; i < batch.messages.length && isRunning() && !isStale(); i += max) {
      const slice = batch.messages.slice(i, i + max);
      const offsets = { first: slice[0].offset, last: slice[slice.length - 1].offset };
      const where = `${consumerName}: ${topic}/${partition}/${offsets.first}-${offsets.last}`;
      const { valid, traces, sources, deadLetters: refused } = validateBatch(slice, { topic, partition, consumerName }, contract);
      // Offsets move only once the dead letters are stored: a broker outage is waited out.
      const store = (letters: DeadLetter[]) =>
        storeDeadLetters((messages) => deadLetters.send({ topic: contract.deadLetterTopic, acks: -1, messages }), letters, (send) => retrying(send, `${where}: dead-lettering`, deps), warn);
      if (refused.length > 0) {
        await store(refused);
        for (const r of refused) logger.error(`${consumerName}: message ${r.source} is invalid (${r.reason}); sent to ${contract.deadLetterTopic}${DEAD_LETTER_HINT}`, r.correlationId);
        this.onDeadLetters?.('invalid', refused.length);
      }
      if (valid.length > 0) {
        const quarantined = await handleWithQuarantine(valid, traces, sources, where, deps, {
          run: (messages, ts) => this.invoke(handler, messages, new KafkaBatchContext([topic, partition, offsets, heartbeat, ts])),
          healthy: this.options.healthy ?? (async () => false),
          deadLetter: async (message, reason) => {
            const letter = deadLetterOf(message, reason, { topic, partition, consumerName });
            await store([letter]);
            return letter;
          },
        });
        for (const q of quarantined) logger.error(`${consumerName}: message ${q.source} was quarantined (${q.reason}); sent to ${contract.deadLetterTopic}${DEAD_LETTER_HINT}`, q.correlationId);
        if (quarantined.length > 0) this.onDeadLetters?.('quarantined', quarantined.length);
      }
      resolveOffset(offsets.last);
      commits.add(topic, partition, offsets.last);
      this.crashes = 0;
      // Stopping: kafkajs leaves the group once this batch returns, so its commit goes first.
      if (!isRunning()) await commits.settled();
      await heartbeat();
    }
  }

  /** The handler through Nest's pipeline (guards, interceptors, filters): a failure rejects. */
  private async invoke(handler: MessageHandler, batch: unknown[], context: KafkaBatchContext): Promise<void> {
    const result = await handler(batch, context);
    await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
  }

  private async disconnect(): Promise<void> {
    const consumer = this.consumer;
    const deadLetters = this.deadLetters;
    // What is queued is committed now; the batch in hand, seeing the stop, waits for its own
    // commit before it returns and kafkajs leaves the group (onBatch).
    this.commits?.closing();
    await consumer?.stop().catch(() => undefined);
    await this.commits?.settled();
    this.commits = undefined;
    this.consumer = undefined;
    this.deadLetters = undefined;
    await consumer?.disconnect().catch(() => undefined);
    await deadLetters?.disconnect().catch(() => undefined);
  }
}

/** kafkajs's shape of offsets to commit. */
function byTopic(offsets: PartitionOffset[]) {
  const topics = [...new Set(offsets.map((o) => o.topic))];
  return { topics: topics.map((topic) => ({ topic, partitions: offsets.filter((o) => o.topic === topic).map(({ partition, offset }) => ({ partition, offset })) })) };
}
