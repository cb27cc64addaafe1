import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Kafka } from 'kafkajs';
import type { Pool } from 'pg';
import type { PixRecebidoMessage } from '@pix/contracts';
import type { EventStore } from '@pix/event-store';
import { BrokerProbe, createKafka, ensureCashInTopics, InProcessCashInBus, KAFKA_PUBLISH_RETRY, KafkaCashInConsumer, KafkaCashInPublisher, NotifierCore, type CashInPublisher, type OperatorOutbox } from '@pix/messaging';
import type { AppConfig } from '../config/config';
import type { Readiness } from '../health/readiness';
import { CONFIG, EVENT_STORE, READ_DB, READINESS } from '../infrastructure/tokens';
import { SettleCashIn } from '../settlement/settle-cash-in';

/**
 * How cash-ins flow in this process. With KAFKA_BROKERS: published to and consumed from Kafka
 * (consumer group pix-api-settlement; in local mode also pix-notifier). Without: local mode's
 * in-process transport. In local mode the notifier (outbox + delivery) runs here too.
 */
@Injectable()
export class CashInWiring implements CashInPublisher, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CashIn');
  private publisher?: CashInPublisher;
  private readonly stops: (() => Promise<void>)[] = [];
  private stopping = false;
  notifier?: NotifierCore;

  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly pool: Pool,
    private readonly settle: SettleCashIn,
    @Inject(READINESS) private readonly readiness: Readiness,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const local = this.config.mode === 'local';
    const log = { log: (m: string) => this.logger.log(m), error: (m: string) => this.logger.error(m) };
    if (local) {
      this.notifier = await NotifierCore.create(this.pool, this.store, this.config.delivery, { log: (m) => new Logger('Notifier').log(m), error: (m) => new Logger('Notifier').error(m) });
      await this.notifier.start();
      this.stops.push(() => this.notifier!.stop());
    }
    if (this.config.kafkaBrokers.length > 0) {
      const kafka = createKafka(this.config.kafkaBrokers, 'pix-api');
      // Its own client: a sandbox request publishing while the broker is down gets its 503 in seconds.
      const publisher = new KafkaCashInPublisher(createKafka(this.config.kafkaBrokers, 'pix-api-publisher', KAFKA_PUBLISH_RETRY));
      this.publisher = publisher;
      const consumers = [new KafkaCashInConsumer(kafka, 'pix-api-settlement', (m) => this.settle.handle(m), log)];
      if (this.notifier) consumers.push(new KafkaCashInConsumer(kafka, 'pix-notifier', this.notifier.handle, log));
      for (const c of consumers) {
        this.readiness.report(`kafka ${c.groupId}`, () => c.state);
        this.stops.push(() => c.stop());
      }
      const probe = new BrokerProbe(this.config.kafkaBrokers);
      this.readiness.check('kafka', () => probe.check());
      this.stops.push(() => probe.close());
      this.stops.push(() => publisher.disconnect());
      // Kafka joins in the background: HTTP and the write path never wait for a consumer group
      // (after a crash that means the dead member's session timeout, tens of seconds), and a
      // broker that is down at start-up delays only settlement, not the API.
      void this.joinKafka(kafka, publisher, consumers);
    } else if (local) {
      const bus = new InProcessCashInBus();
      bus.subscribe('settlement', (m) => this.settle.handle(m));
      bus.subscribe('notifier', this.notifier!.handle);
      this.publisher = bus;
      this.logger.log('cash-ins over the in-process transport (no KAFKA_BROKERS)');
    } else {
      this.logger.warn('no KAFKA_BROKERS: this process receives no cash-ins');
    }
  }

  private async joinKafka(kafka: Kafka, publisher: KafkaCashInPublisher, consumers: KafkaCashInConsumer[]): Promise<void> {
    for (let delay = 500; !this.stopping; delay = Math.min(delay * 2, 10_000)) {
      try {
        // Topics are created explicitly (brokers here do not auto-create them).
        await ensureCashInTopics(kafka);
        await publisher.connect();
        break;
      } catch (error) {
        this.logger.error(`Kafka at ${this.config.kafkaBrokers.join(',')} unavailable (${(error as Error).message}); retrying in ${delay} ms`);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
    if (this.stopping) return;
    for (const c of consumers) c.startInBackground();
    this.logger.log(`cash-ins over Kafka at ${this.config.kafkaBrokers.join(',')}; consumer groups joining in the background`);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const stop of this.stops.reverse()) await stop().catch((e) => this.logger.error(String(e)));
  }

  /** The notifier's outbox for the operator endpoints (local mode), resolved when used. */
  readonly outbox: OperatorOutbox = {
    stats: () => this.requireNotifier().outbox.stats(),
    get: (id: string) => this.requireNotifier().outbox.get(id),
    attempts: (id: string) => this.requireNotifier().outbox.attempts(id),
    resend: (selector: Parameters<NotifierCore['outbox']['resend']>[0]) => this.requireNotifier().outbox.resend(selector),
    recent: (limit: number) => this.requireNotifier().outbox.recent(limit),
  };

  private requireNotifier(): NotifierCore {
    if (!this.notifier) throw new Error('the notifier runs in this process only in local mode');
    return this.notifier;
  }

  publish(message: PixRecebidoMessage): Promise<void> {
    if (!this.publisher) throw new Error('no cash-in transport configured');
    return this.publisher.publish(message);
  }
}
