import { Controller, Get, Inject, Injectable, Logger, Module, type BeforeApplicationShutdown, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Ctx, EventPattern, KafkaContext, Payload } from '@nestjs/microservices';
import { Pool } from 'pg';
import { CASH_IN_TOPIC } from '@pix/contracts';
import { EVENT_STORE_MIGRATION, EventStoreDbEventStore, migrate, PostgresEventStore, type EventStore } from '@pix/event-store';
import { OUTBOX_MIGRATION } from '@pix/webhook-delivery';
import { consumeCashIn, createKafka, NotificationsController, NotifierCore, NOTIFICATION_OUTBOX } from '@pix/messaging';
import type { Producer } from 'kafkajs';
import type { NotifierConfig } from './config';
import { OperatorGuard } from './operator.guard';

const CORE = Symbol('NotifierCore');
const DEAD_LETTERS = Symbol('DeadLetterProducer');

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
  constructor(@Inject(CORE) private readonly core: NotifierCore) {}

  /** The age of the oldest undelivered notification is the number to alert on. */
  @Get()
  async health() {
    return { status: 'ok', notifications: await this.core.outbox.stats() };
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
        { provide: APP_GUARD, useFactory: () => new OperatorGuard(config.operatorToken) },
        { provide: CORE, useFactory: () => NotifierCore.create(pool, store, config.delivery, { log: (m) => logger.log(m), error: (m) => logger.error(m) }) },
        { provide: NOTIFICATION_OUTBOX, inject: [CORE], useFactory: (core: NotifierCore) => core.outbox },
        {
          provide: DEAD_LETTERS,
          useFactory: async () => {
            const producer = createKafka(config.kafkaBrokers, 'pix-notifier-dlt').producer();
            await producer.connect();
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
