import { Controller, Get, Inject, Injectable, Logger, Module, Res, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { isDraining } from '@pix/http-edge';
import { withCorrelationId, withTimeout } from '@pix/observability';
import { Pool } from 'pg';
import { EVENT_STORE_MIGRATIONS, EventStoreDbEventStore, PostgresEventStore, SNAPSHOTS_MIGRATION, type EventStore } from '@pix/event-store';
import { OUTBOX_MIGRATIONS } from '@pix/webhook-delivery';
import { dependenciesAnswer, NotificationsController, NotifierCore, NotifierIntakeController, NOTIFICATION_OUTBOX, NOTIFIER_CORE, NOTIFIER_INTAKE } from '@pix/messaging';
import { BrokerProbe, CASH_IN_CONTRACT, createKafka, ensureCashInTopics, KAFKA_RETRY, KafkaBatchServer, KafkaLogs } from '@pix/messaging-kafka';
import type { NotifierConfig } from './config';
import { OperatorGuard } from './operator.guard';

export const KAFKA_STATE = Symbol('KafkaState');

/**
 * The cash-in consumer group (its transport joins in the background, main.ts connects it) and
 * whether the cluster answers, for /health and pix_dependency_up.
 */
export class KafkaState {
  constructor(
    readonly intake: KafkaBatchServer,
    readonly cluster: BrokerProbe,
    /** The app's Kafka clients' log lines, silenced once they are stopped. */
    readonly logs: KafkaLogs,
  ) {}

  /** `stuck joining` once it has been joining for longer than STUCK_JOINING_MS. */
  get consumer() {
    return this.intake.reportedState();
  }

  /** pix_dependency_up{dependency="kafka"}: the cluster answers and the group is not stuck joining. */
  async up(): Promise<boolean> {
    return (await this.cluster.check()) === undefined && this.consumer !== 'stuck joining';
  }
}

/** A probe never waits longer than this for the database. */
const PROBE_TIMEOUT_MS = 2000;

/** Readiness's database probe (pix_dependency_up{dependency="database"} asks the same): the outbox's counts. */
export function probeOutbox(core: NotifierCore) {
  return withTimeout(core.outbox.stats(), PROBE_TIMEOUT_MS, 'database probe timed out');
}

/**
 * Probes, open without a token. `live`: the process answers. `ready` (and `/health`, its alias):
 * the database and the Kafka cluster answer, so cash-ins can be taken into the outbox and
 * delivered; 503 with Retry-After while either does not, and 503 once a shutdown has begun
 * (SHUTDOWN_DELAY). Unlike the API's, Kafka decides here: consuming is this app's whole job,
 * and it serves no traffic but operator requests. The consumer group joins in the background and
 * is reported; one joining for over a minute shows `stuck joining` and status `degraded`.
 * The age of the oldest undelivered notification is the number to alert on.
 */
@Controller('health')
class HealthController {
  constructor(
    @Inject(NOTIFIER_CORE) private readonly core: NotifierCore,
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
    if (isDraining(reply)) {
      void reply.status(503);
      return { status: 'shutting down' };
    }
    const cluster = (await this.kafka.cluster.check()) === undefined ? 'up' : 'unreachable';
    const kafka = { consumer: this.kafka.consumer, cluster };
    try {
      const notifications = await probeOutbox(this.core);
      if (cluster !== 'up') {
        void reply.status(503).header('retry-after', '2');
        return { status: 'unavailable', database: 'up', kafka, notifications };
      }
      return { status: kafka.consumer === 'stuck joining' ? 'degraded' : 'ok', database: 'up', kafka, notifications };
    } catch {
      // No error text: this endpoint is open, and the message would name internal addresses.
      void reply.status(503).header('retry-after', '2');
      return { status: 'unavailable', database: 'unreachable', kafka };
    }
  }
}

@Injectable()
class Lifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(NOTIFIER_CORE) private readonly core: NotifierCore,
    @Inject(KAFKA_STATE) private readonly kafka: KafkaState,
  ) {}

  onApplicationBootstrap() {
    return this.core.start();
  }

  /** After the consumer has stopped (Nest closes microservices first): no more intake, then the worker. */
  async onApplicationShutdown() {
    await this.kafka.cluster.close();
    await this.core.stop();
    this.kafka.logs.close();
  }
}

@Module({})
export class NotifierModule {
  static forRoot(config: NotifierConfig, store: EventStore, pool: Pool): DynamicModule {
    const logger = new Logger('Notifier');
    const kafkaLogger = new Logger('Kafka');
    const logs = new KafkaLogs();
    const kafka = createKafka(config.kafkaBrokers, 'pix-notifier', KAFKA_RETRY, logs);
    // Cash-ins in batches through the one Kafka transport (ADR 16); topics are created before each join.
    const intake = new KafkaBatchServer({
      transportId: NOTIFIER_INTAKE,
      kafka,
      groupId: config.groupId,
      topics: CASH_IN_CONTRACT,
      logger: { log: (m) => kafkaLogger.log(m), warn: (m) => kafkaLogger.warn(m), error: (m, correlationId) => withCorrelationId(correlationId, () => kafkaLogger.error(m)) },
      prepare: () => ensureCashInTopics(kafka),
      healthy: dependenciesAnswer(pool, store),
    });
    return {
      module: NotifierModule,
      controllers: [NotifierIntakeController, HealthController, NotificationsController],
      providers: [
        Lifecycle,
        { provide: KAFKA_STATE, useValue: new KafkaState(intake, new BrokerProbe(config.kafkaBrokers, undefined, undefined, logs), logs) },
        { provide: APP_GUARD, useFactory: () => new OperatorGuard(config.operatorToken, [HealthController]) },
        { provide: NOTIFIER_CORE, useFactory: () => NotifierCore.create(pool, store, config.delivery, { log: (m) => logger.log(m), error: (m) => logger.error(m), warn: (m) => logger.warn(m) }) },
        { provide: NOTIFICATION_OUTBOX, inject: [NOTIFIER_CORE], useFactory: (core: NotifierCore) => core.outbox },
      ],
    };
  }
}

/** The notifier's tables (migration ids shared with the API's): one schema step, under the one lock all DDL takes. */
export const NOTIFIER_MIGRATIONS = [...EVENT_STORE_MIGRATIONS, SNAPSHOTS_MIGRATION, ...OUTBOX_MIGRATIONS];

/** The event store the registrations are read from: EventStoreDB when configured, else PostgreSQL (NOTIFIER_MIGRATIONS run first). */
export async function openEventStore(config: NotifierConfig, pool: Pool): Promise<EventStore> {
  return config.eventStoreConnectionString ? EventStoreDbEventStore.fromConnectionString(config.eventStoreConnectionString) : PostgresEventStore.create({ pool, listen: false });
}
