import { Controller, Get, Inject, Injectable, Logger, Module, Res, type BeforeApplicationShutdown, type DynamicModule, type INestApplication, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Ctx, EventPattern, KafkaContext, Payload } from '@nestjs/microservices';
import type { FastifyReply } from 'fastify';
import { Pool } from 'pg';
import { CASH_IN_TOPIC } from '@pix/contracts';
import { EVENT_STORE_MIGRATION, EventStoreDbEventStore, migrate, PostgresEventStore, type EventStore } from '@pix/event-store';
import { OUTBOX_MIGRATIONS } from '@pix/webhook-delivery';
import { BrokerProbe, consumeCashIn, createKafka, ensureCashInTopics, NotificationsController, NotifierCore, NOTIFICATION_OUTBOX } from '@pix/messaging';
import type { Consumer, Producer } from 'kafkajs';
import type { NotifierConfig } from './config';
import { OperatorGuard } from './operator.guard';

const CORE = Symbol('NotifierCore');
const DEAD_LETTERS = Symbol('DeadLetterProducer');
export const KAFKA_STATE = Symbol('KafkaState');

/** Where the cash-in consumer group is, for /health (it joins in the background), and whether the cluster answers. */
export class KafkaState {
  consumer: 'joining' | 'joined' | 'stopped' = 'joining';
  constructor(readonly cluster: BrokerProbe) {}
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
    await consumeCashIn({ topic: context.getTopic(), partition: context.getPartition(), offset: m.offset, key: m.key, value, heartbeat: context.getHeartbeat() }, this.core.handle, {
      deadLetters: this.deadLetters,
      consumerName: 'pix-notifier',
      logger: { log: (s) => this.logger.log(s), error: (s) => this.logger.error(s) },
      stopped: () => this.stopping,
    });
  }
}

/** A probe never waits longer than this for the database. */
const PROBE_TIMEOUT_MS = 2000;

/**
 * Probes, open without a token. `live`: the process answers. `ready` (and `/health`, its alias):
 * the database and the Kafka cluster answer, so cash-ins can be taken into the outbox and
 * delivered; 503 with Retry-After while either does not. The consumer group joins in the background and is reported.
 * The age of the oldest undelivered notification is the number to alert on.
 */
@Controller('health')
class HealthController {
  constructor(
    @Inject(CORE) private readonly core: NotifierCore,
    @Inject(KAFKA_STATE) private readonly kafka: KafkaState,
  ) {}

  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Get()
  health(@Res({ passthrough: true }) reply: FastifyReply) {
    return this.ready(reply);
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const cluster = (await this.kafka.cluster.check()) === undefined ? 'up' : 'unreachable';
    const kafka = { consumer: this.kafka.consumer, cluster };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('database probe timed out')), PROBE_TIMEOUT_MS)));
    try {
      const notifications = await Promise.race([this.core.outbox.stats(), timeout]);
      if (cluster !== 'up') {
        void reply.status(503).header('retry-after', '2');
        return { status: 'unavailable', database: 'up', kafka, notifications };
      }
      return { status: 'ok', database: 'up', kafka, notifications };
    } catch {
      // No error text: this endpoint is open, and the message would name internal addresses.
      void reply.status(503).header('retry-after', '2');
      return { status: 'unavailable', database: 'unreachable', kafka };
    } finally {
      clearTimeout(timer);
    }
  }
}

@Injectable()
class Lifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(CORE) private readonly core: NotifierCore,
    @Inject(DEAD_LETTERS) private readonly deadLetters: Producer,
    @Inject(KAFKA_STATE) private readonly kafka: KafkaState,
  ) {}

  /** No more joining attempts once shutting down. */
  beforeApplicationShutdown(): void {
    this.kafka.consumer = 'stopped';
  }

  onApplicationBootstrap() {
    return this.core.start();
  }

  async onApplicationShutdown() {
    await this.kafka.cluster.close();
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
        { provide: KAFKA_STATE, useValue: new KafkaState(new BrokerProbe(config.kafkaBrokers)) },
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
  await migrate(pool, [EVENT_STORE_MIGRATION, ...OUTBOX_MIGRATIONS]);
  return config.eventStoreConnectionString ? EventStoreDbEventStore.fromConnectionString(config.eventStoreConnectionString) : PostgresEventStore.create({ pool, listen: false });
}

/**
 * Creates the topics and starts the Kafka consumer after HTTP is up, retrying with capped
 * backoff while the broker is unreachable: a restart never waits for the group to rebalance
 * away a killed member's session (tens of seconds), and a broker outage at start-up is survived.
 * kafkajs restarts a consumer itself after retriable failures (a broker outage); after a
 * non-retriable one it stops for good, so this closes the server and joins again.
 */
export function joinKafkaInBackground(app: INestApplication & { startAllMicroservices(): Promise<unknown>; getMicroservices(): { unwrap<T>(): T }[] }, config: NotifierConfig): void {
  const logger = new Logger('Kafka');
  const state = app.get<KafkaState>(KAFKA_STATE);
  // Nest keeps the Kafka server behind the microservice; close() disconnects its client so a retry starts clean.
  const server = (app.getMicroservices()[0] as unknown as { serverInstance: { close(): Promise<void> } }).serverInstance;
  const join = async (): Promise<void> => {
    for (let delay = 500; state.consumer !== 'stopped'; delay = Math.min(delay * 2, 10_000)) {
      try {
        await ensureCashInTopics(createKafka(config.kafkaBrokers, 'pix-notifier-admin'));
        await app.startAllMicroservices();
        const [, consumer] = app.getMicroservices()[0].unwrap<[unknown, Consumer]>();
        consumer.on(consumer.events.GROUP_JOIN, () => {
          if (state.consumer !== 'joined') logger.log(`consumer group ${config.groupId}: joined`);
          state.consumer = 'joined';
        });
        consumer.on(consumer.events.CRASH, (e) => {
          if (state.consumer === 'stopped') return;
          state.consumer = 'joining';
          logger.error(`consumer group ${config.groupId}: ${e.payload.error.message}; ${e.payload.restart ? 'kafkajs restarts it' : 'starting it again'}`);
          if (!e.payload.restart) void server.close().catch(() => undefined).then(join);
        });
        state.consumer = 'joined';
        logger.log(`consumer group ${config.groupId}: joined`);
        return;
      } catch (error) {
        logger.error(`consumer group ${config.groupId}: cannot start (${(error as Error).message}); retrying in ${delay} ms`);
        await server.close().catch(() => undefined);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  };
  void join();
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
