import { Controller, Get, Inject, Injectable, Logger, Module, type BeforeApplicationShutdown, type DynamicModule, type INestApplication, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Ctx, EventPattern, KafkaContext, Payload } from '@nestjs/microservices';
import { Pool } from 'pg';
import { CASH_IN_TOPIC } from '@pix/contracts';
import { EVENT_STORE_MIGRATION, EventStoreDbEventStore, migrate, PostgresEventStore, type EventStore } from '@pix/event-store';
import { OUTBOX_MIGRATION } from '@pix/webhook-delivery';
import { consumeCashIn, createKafka, ensureCashInTopics, NotificationsController, NotifierCore, NOTIFICATION_OUTBOX } from '@pix/messaging';
import type { Consumer, Producer } from 'kafkajs';
import type { NotifierConfig } from './config';
import { OperatorGuard } from './operator.guard';

const CORE = Symbol('NotifierCore');
const DEAD_LETTERS = Symbol('DeadLetterProducer');
export const KAFKA_STATE = Symbol('KafkaState');

/** Where the cash-in consumer group is, for /health: it joins in the background. */
export class KafkaState {
  consumer: 'joining' | 'joined' | 'stopped' = 'joining';
}

/** Kafka (through @nestjs/microservices) → validation → the durable outbox. */
@Controller()
class CashInConsumer implements BeforeApplicationShutdown {
  private readonly logger = new Logger('CashIn');
  private stopping = false;

  constructor(
    @Inject(CORE) private readonly core: NotifierCore,
    @Inject(DEAD_LETTERS) private readonly deadLetters: Producer,
  ) {}

  /** A message that keeps failing is retried until shutdown, then left for redelivery. */
  beforeApplicationShutdown(): void {
    this.stopping = true;
  }

  @EventPattern(CASH_IN_TOPIC)
  async onCashIn(@Payload() value: Buffer | null, @Ctx() context: KafkaContext): Promise<void> {
    const m = context.getMessage();
    await consumeCashIn({ topic: context.getTopic(), partition: context.getPartition(), offset: m.offset, key: m.key, value }, this.core.handle, {
      deadLetters: this.deadLetters,
      consumerName: 'pix-notifier',
      logger: { log: (s) => this.logger.log(s), error: (s) => this.logger.error(s) },
      stopped: () => this.stopping,
    });
  }
}

@Controller('health')
class HealthController {
  constructor(
    @Inject(CORE) private readonly core: NotifierCore,
    @Inject(KAFKA_STATE) private readonly kafka: KafkaState,
  ) {}

  /** The age of the oldest undelivered notification is the number to alert on. */
  @Get()
  async health() {
    return { status: 'ok', kafka: { consumer: this.kafka.consumer }, notifications: await this.core.outbox.stats() };
  }
}

@Injectable()
class Lifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(CORE) private readonly core: NotifierCore,
    @Inject(DEAD_LETTERS) private readonly deadLetters: Producer,
  ) {}

  onApplicationBootstrap() {
    return this.core.start();
  }

  async onApplicationShutdown() {
    await this.core.stop();
    await this.deadLetters.disconnect();
  }
}

@Module({})
export class NotifierModule {
  static forRoot(config: NotifierConfig, store: EventStore, pool: Pool): DynamicModule {
    const logger = new Logger('Notifier');
    return {
      module: NotifierModule,
      controllers: [CashInConsumer, HealthController, NotificationsController],
      providers: [
        Lifecycle,
        { provide: KAFKA_STATE, useValue: new KafkaState() },
        { provide: APP_GUARD, useFactory: () => new OperatorGuard(config.operatorToken) },
        { provide: CORE, useFactory: () => NotifierCore.create(pool, store, config.delivery, { log: (m) => logger.log(m), error: (m) => logger.error(m) }) },
        { provide: NOTIFICATION_OUTBOX, inject: [CORE], useFactory: (core: NotifierCore) => core.outbox },
        {
          provide: DEAD_LETTERS,
          useFactory: () => {
            const producer = createKafka(config.kafkaBrokers, 'pix-notifier-dlt').producer();
            // Not awaited: start-up does not wait for the broker; used only for poison messages.
            void connectWithRetry(producer, new Logger('DeadLetters'));
            return producer;
          },
        },
      ],
    };
  }
}

/** The event store the registrations are read from: EventStoreDB when configured, else PostgreSQL. */
export async function openEventStore(config: NotifierConfig, pool: Pool): Promise<EventStore> {
  // Start-up's one schema step (shared ids with the API's): under the one lock all DDL takes.
  await migrate(pool, [EVENT_STORE_MIGRATION, OUTBOX_MIGRATION]);
  return config.eventStoreConnectionString ? EventStoreDbEventStore.fromConnectionString(config.eventStoreConnectionString) : PostgresEventStore.create({ pool, listen: false });
}

/**
 * Creates the topics and starts the Kafka consumer after HTTP is up, retrying with capped
 * backoff while the broker is unreachable: a restart never waits for the group to rebalance
 * away a killed member's session (tens of seconds), and a broker outage at start-up is survived.
 */
export function joinKafkaInBackground(app: INestApplication & { startAllMicroservices(): Promise<unknown>; getMicroservices(): { unwrap<T>(): T }[] }, config: NotifierConfig): void {
  const logger = new Logger('Kafka');
  const state = app.get<KafkaState>(KAFKA_STATE);
  void (async () => {
    for (let delay = 500; state.consumer !== 'stopped'; delay = Math.min(delay * 2, 10_000)) {
      try {
        await ensureCashInTopics(createKafka(config.kafkaBrokers, 'pix-notifier-admin'));
        await app.startAllMicroservices();
        state.consumer = 'joined';
        logger.log(`consumer group ${config.groupId}: joined`);
        const [, consumer] = app.getMicroservices()[0].unwrap<[unknown, Consumer]>();
        consumer.on(consumer.events.GROUP_JOIN, () => (state.consumer = 'joined'));
        consumer.on(consumer.events.CRASH, () => (state.consumer = 'joining'));
        return;
      } catch (error) {
        logger.error(`consumer group ${config.groupId}: cannot start (${(error as Error).message}); retrying in ${delay} ms`);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  })();
}

async function connectWithRetry(producer: Producer, logger: Logger): Promise<void> {
  for (let delay = 500; ; delay = Math.min(delay * 2, 10_000)) {
    try {
      return await producer.connect();
    } catch (error) {
      logger.error(`dead-letter producer cannot connect (${(error as Error).message}); retrying in ${delay} ms`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
