import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from 'pg';
import type { CashInTrace, PixRecebidoMessage } from '@pix/contracts';
import type { EventStore } from '@pix/event-store';
import { dependenciesAnswer, NotifierCore, NOTIFIER_INTAKE, type CashInPublisher, type OperatorOutbox } from '@pix/messaging';
import type { KafkaBatchServer, KafkaCashInPublisher, KafkaLogs, TopicEnd } from '@pix/messaging-kafka';
import { withCorrelationId, withTimeout } from '@pix/observability';
import { kafkaTransport } from './kafka-transport';
import { unfinishedLocalCashIns } from './local-cash-in-recovery';
import { InProcessCashInBus } from '@pix/messaging-local';
import type { AppConfig } from '../config/config';
import { reportKafka, type Readiness } from '../health/readiness';
import { CLOCK, CONFIG, EVENT_STORE, READ_DB, READINESS } from '../infrastructure/tokens';
import type { Clock } from '../shared/ports';
import { SettleCashIn } from '../settlement/settle-cash-in';
import { SETTLEMENT_TRANSPORT } from '../settlement/settlement.consumer';

/** How long a publish waits for the Kafka publisher's first connect. */
const PUBLISHER_CONNECT_WAIT_MS = 5_000;

/**
 * How cash-ins flow in this process. With KAFKA_BROKERS: published to Kafka and consumed through
 * the batch transport (ADR 16) by SettlementConsumer (group SETTLEMENT_GROUP_ID) and, in local
 * mode, the notifier's intake (group NOTIFIER_GROUP_ID); `servers` are connected as microservices by
 * connectCashInConsumers. Without: local mode's in-process transport calls the same batch
 * handlers. In local mode the notifier (outbox + delivery) runs here too.
 */
@Injectable()
export class CashInWiring implements CashInPublisher, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CashIn');
  private publisher?: CashInPublisher;
  private readonly stops: (() => Promise<void>)[] = [];
  private stopping = false;
  /**
   * Local mode with KAFKA_BROKERS: where the cash-in topic ended before this instance could
   * publish. Its groups, new (a new DATA_DIR), start there: a developer's instance on a shared
   * broker reads what is published while it runs, not the topic's history (which it recorded as
   * no receiver's here, payers and all). Undefined once stopping.
   */
  private readonly localStart?: { end: Promise<TopicEnd | undefined>; resolve(end: TopicEnd | undefined): void };
  /** Settles once the Kafka publisher has connected (its first connect after start-up). */
  private publisherConnected?: Promise<void>;
  notifier?: NotifierCore;
  /** The consumer groups of this process, one Nest microservice each. */
  readonly servers: KafkaBatchServer[] = [];
  /** Every Kafka client of this app logs through it; silenced once they are stopped (clients still retrying a connect would log after "stopped cleanly"). */
  readonly kafkaLogs?: KafkaLogs;

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly pool: Pool,
    private readonly settle: SettleCashIn,
    @Inject(READINESS) private readonly readiness: Readiness,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    if (config.kafkaBrokers.length === 0) return;
    const { CASH_IN_CONTRACT, createKafka, ensureCashInTopics, KafkaBatchServer, KAFKA_RETRY, KafkaLogs, startNewGroupAt } = kafkaTransport();
    if (config.mode === 'local') {
      let resolve!: (end: TopicEnd | undefined) => void;
      this.localStart = { end: new Promise((r) => (resolve = r)), resolve: (end) => resolve(end) };
    }
    const logs = (this.kafkaLogs = new KafkaLogs());
    const kafka = createKafka(config.kafkaBrokers, 'pix-api', KAFKA_RETRY, logs);
    const kafkaLogger = new Logger('Kafka');
    const server = (transportId: symbol, groupId: string) =>
      new KafkaBatchServer({
        transportId,
        kafka,
        groupId,
        topics: CASH_IN_CONTRACT,
        logger: { log: (m) => kafkaLogger.log(m), warn: (m) => kafkaLogger.warn(m), error: (m, correlationId) => withCorrelationId(correlationId, () => kafkaLogger.error(m)) },
        prepare: async () => {
          await ensureCashInTopics(kafka);
          const end = await this.localStart?.end;
          if (end && (await startNewGroupAt(kafka, groupId, end))) kafkaLogger.log(`consumer group ${groupId} is new: it starts where the cash-in topic ended when this instance started, not at its first message (local mode)`);
        },
        healthy: dependenciesAnswer(pool, store),
      });
    this.servers.push(server(SETTLEMENT_TRANSPORT, config.settlementGroupId));
    if (config.mode === 'local') this.servers.push(server(NOTIFIER_INTAKE, config.notifierGroupId));
  }

  async onApplicationBootstrap(): Promise<void> {
    const local = this.config.mode === 'local';
    if (local) {
      const log = new Logger('Notifier');
      this.notifier = await NotifierCore.create(this.pool, this.store, this.config.delivery, { log: (m) => log.log(m), error: (m) => log.error(m), warn: (m) => log.warn(m) });
      await this.notifier.start();
      this.stops.push(() => this.notifier!.stop());
    }
    if (this.config.kafkaBrokers.length > 0) {
      const { BrokerProbe, createKafka, KAFKA_PUBLISH_RETRY, KafkaCashInPublisher } = kafkaTransport();
      // Its own client: a sandbox request publishing while the broker is down gets its 503 in seconds.
      const publisher = new KafkaCashInPublisher(createKafka(this.config.kafkaBrokers, 'pix-api-publisher', KAFKA_PUBLISH_RETRY, this.kafkaLogs));
      this.publisher = publisher;
      const probe = new BrokerProbe(this.config.kafkaBrokers, undefined, undefined, this.kafkaLogs);
      reportKafka(this.readiness, () => probe.check(), this.servers);
      // Said at once: with the broker away the first line of ours came after a minute of retries,
      // and an operator saw only kafkajs's; the groups (local mode's own, README) are named here.
      this.logger.log(`cash-ins over Kafka at ${this.config.kafkaBrokers.join(',')}; consumer groups ${this.groupsSaid()} joining in the background`);
      this.stops.push(() => probe.close(), () => publisher.disconnect());
      for (const s of this.servers) {
        // Nest closes them with the app; this covers a process whose app never connected them.
        this.stops.push(() => s.close());
        // Consumption starts with the application (after start-up's catch-up), never before; the
        // groups join in the background: HTTP and the write path never wait for Kafka (after a
        // crash that means the dead member's session timeout), and a broker that is down at
        // start-up delays only settlement, not the API.
        s.listen(() => undefined);
      }
      this.publisherConnected = this.connectPublisher(publisher);
    } else if (local) {
      // Publish time by the clock the sandbox stamps horario with (a test may move it).
      const bus = new InProcessCashInBus(() => this.clock.now());
      bus.subscribe('settlement', (batch, traces) => this.settle.handleBatch(batch, traces));
      bus.subscribe('notifier', this.notifier!.handleBatch);
      // No broker redelivers what a crash cut short: finish it before taking new cash-ins.
      const unfinished = await unfinishedLocalCashIns(this.pool);
      if (unfinished.length > 0) {
        this.logger.warn(`${unfinished.length} cash-in(s) recorded before the last stop were not settled or notified to the end: finishing them`);
        for (const message of unfinished) await bus.publish(message);
      }
      this.publisher = bus;
      this.logger.log('cash-ins over the in-process transport (no KAFKA_BROKERS)');
    } else {
      this.logger.warn('KAFKA_BROKERS=none: this process receives no cash-ins, and no charge settles');
    }
  }

  private async connectPublisher(publisher: KafkaCashInPublisher): Promise<void> {
    const { createKafka, ensureCashInTopics, KAFKA_RETRY, topicEnd } = kafkaTransport();
    for (let delay = 500; !this.stopping; delay = Math.min(delay * 2, 10_000)) {
      try {
        // Topics are created explicitly (brokers here do not auto-create them); the consumers' start does it too.
        const admin = createKafka(this.config.kafkaBrokers, 'pix-api-admin', KAFKA_RETRY, this.kafkaLogs);
        await ensureCashInTopics(admin);
        // Before this instance can publish (the sandbox payer): its own cash-ins come after it.
        if (this.localStart) this.localStart.resolve(await topicEnd(admin));
        await publisher.connect();
        this.logger.log(`Kafka at ${this.config.kafkaBrokers.join(',')} reached: cash-in topics ready, publisher connected`);
        return;
      } catch (error) {
        this.logger.error(`Kafka at ${this.config.kafkaBrokers.join(',')} unavailable (${(error as Error).message}); retrying in ${delay} ms`);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  /** Which group does what: a local instance in a deployment's group would take its cash-ins, so it is said. */
  private groupsSaid(): string {
    const { settlementGroupId, notifierGroupId } = this.config;
    return this.config.mode === 'local' ? `${settlementGroupId} (settlement) and ${notifierGroupId} (notifier intake)` : `${settlementGroupId} (settlement)`;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.localStart?.resolve(undefined);
    for (const stop of this.stops.reverse()) await stop().catch((e) => this.logger.error(String(e)));
    this.kafkaLogs?.close();
  }

  /** The notifier's outbox for the operator endpoints (local mode), resolved when used. */
  readonly outbox: OperatorOutbox = {
    stats: () => this.requireNotifier().outbox.stats(),
    get: (id: string) => this.requireNotifier().outbox.get(id),
    attempts: (id: string) => this.requireNotifier().outbox.attempts(id),
    resend: (selector: Parameters<NotifierCore['outbox']['resend']>[0]) => this.requireNotifier().outbox.resend(selector),
    page: (query: Parameters<NotifierCore['outbox']['page']>[0]) => this.requireNotifier().outbox.page(query),
  };

  /** The notifier's intake for its consumer group here (local mode with KAFKA_BROKERS), resolved when used. */
  readonly intake = { handleBatch: (batch: PixRecebidoMessage[], traces?: readonly (CashInTrace | undefined)[]) => this.requireNotifier().handleBatch(batch, traces) };

  private requireNotifier(): NotifierCore {
    if (!this.notifier) throw new Error('the notifier runs in this process only in local mode');
    return this.notifier;
  }

  async publish(message: PixRecebidoMessage, trace?: CashInTrace): Promise<void> {
    if (!this.publisher) throw new Error('no cash-in transport configured');
    // A payment made just after start-up waits for the publisher's first connect (briefly: a
    // broker that is down still answers 503 in seconds, as the publish itself then fails).
    if (this.publisherConnected) await withTimeout(this.publisherConnected, PUBLISHER_CONNECT_WAIT_MS).catch(() => undefined);
    return this.publisher.publish(message, trace);
  }
}
