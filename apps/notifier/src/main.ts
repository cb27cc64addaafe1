import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Pool } from 'pg';
import { beginDraining, HttpProblemFilter, installHttpEdge, installStrictInput, withHttpEdge } from '@pix/http-edge';
import { NOTIFIER_CORE, type NotifierCore } from '@pix/messaging';
import {
  AppLogger,
  assertCanListen,
  correlationIdOf,
  exitOnStartupFailure,
  explainListenFailure,
  installAccessLog,
  Metrics,
  misspeltSettingLine,
  misspeltSettings,
  onShutdownSignals,
  recordingReads,
} from '@pix/observability';
import { assertPostgresReachable, migrate, withOwnPool } from '@pix/event-store';
import { installNotifierMetrics } from './notifier-metrics';
import { loadNotifierConfig, type NotifierConfig } from './config';
import { KAFKA_STATE, NOTIFIER_MIGRATIONS, NotifierModule, openEventStore, type KafkaState } from './notifier.module';

/** The webhook notifier: consumes cash-ins from Kafka and delivers them to registered webhooks. */
async function main(): Promise<void> {
  let config: NotifierConfig;
  const settings = recordingReads(process.env);
  try {
    config = loadNotifierConfig(settings.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const appLogger = new AppLogger({ format: config.logFormat, level: config.logLevel, base: { service: 'pix-notifier' } });
  Logger.overrideLogger(appLogger);
  const logger = new Logger('Notifier');
  for (const m of misspeltSettings(process.env, settings.read)) logger.warn(misspeltSettingLine(m));
  const metrics = new Metrics('pix-notifier');
  config = { ...config, delivery: { ...config.delivery, onAttempt: metrics.observeDelivery } };
  const listenOn = { port: config.port, host: config.host, portSetting: 'NOTIFIER_PORT' };
  await assertCanListen(listenOn);
  await assertPostgresReachable(config.databaseUrl);
  // Start-up's one schema step (migration ids shared with the API's), on a connection of its own:
  // without the statement deadline below.
  await withOwnPool(config.databaseUrl, 'pix-notifier', (own) => migrate(own, NOTIFIER_MIGRATIONS));
  // As the API's: a database that does not answer fails a request in 5 s (a 503) instead of holding
  // it, and a statement it stops answering (frozen, black-holed) fails at the deadline, its connection dropped.
  const pool = new Pool({ connectionString: config.databaseUrl, max: 20, connectionTimeoutMillis: 5000, query_timeout: config.databaseQueryTimeoutMs, keepAlive: true, application_name: 'pix-notifier' });
  pool.on('error', () => undefined);
  const store = await openEventStore(config, pool);
  const app = await NestFactory.create<NestFastifyApplication>(NotifierModule.forRoot(config, store, pool), new FastifyAdapter(withHttpEdge({})), {
    logger: appLogger,
    // JSON is read by the strict parser installed below; Nest's own parsers would replace it.
    bodyParser: false,
  });
  // Operator requests get a correlation id on their answer and on their access and error lines, as in the API.
  const fastify = app.getHttpAdapter().getInstance();
  // Every error it answers, from Node's parser to the controllers, is a problem as in the API.
  installHttpEdge(fastify, { connectionsPerAddress: config.connectionsPerAddress });
  // Operator bodies are read like the API's: duplicates, depth, NUL and lone surrogates refused.
  installStrictInput(fastify, { problemFor: () => ({ tipo: 'RequisicaoInvalida', root: 'body' }) });
  app.useGlobalFilters(new HttpProblemFilter());
  installAccessLog(fastify);
  installNotifierMetrics(fastify, config, metrics, app.get<NotifierCore>(NOTIFIER_CORE), app.get<KafkaState>(KAFKA_STATE));
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-correlation-id', correlationIdOf(request));
    reply.header('cache-control', 'no-store');
  });
  // The one Kafka transport (ADR 16): batches of validated cash-ins to NotifierIntakeController.
  app.connectMicroservice<MicroserviceOptions>({ strategy: app.get<KafkaState>(KAFKA_STATE).intake });
  await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
    throw explainListenFailure(error, listenOn);
  });
  // Returns at once: topics and the consumer group come up behind HTTP, retried while the broker is away.
  await app.startAllMicroservices();
  logger.log(`notifier up: consumer group ${config.groupId} on ${config.kafkaBrokers.join(',')}; operator endpoints on :${config.port} (/health, /notifier/...)`);
  if (!config.operatorToken) logger.warn('operator endpoints (/notifier/...) are shut: set NOTIFIER_OPERATOR_TOKEN to use them');
  if (config.delivery.allowPrivateTargets) logger.warn('WEBHOOK_ALLOW_PRIVATE_TARGETS=true: deliveries may reach private and loopback addresses');
  onShutdownSignals({
    drainMs: config.shutdownDrainMs,
    // First the delay: readiness 503 and every answer closing its connection, so a load balancer
    // stops routing here while the port is still open; only then does the HTTP server close.
    delayMs: config.shutdownDelayMs,
    beginDelay: () => beginDraining(app.getHttpAdapter().getInstance()),
    log: (m) => logger.log(m),
    warn: (m) => logger.warn(m),
    // HTTP first, then the consumer (uncommitted offsets are read again by another member) and
    // the delivery workers (requests in flight finish and are recorded; unfinished leases expire).
    steps: [() => app.close(), () => store.close(), () => pool.end()],
    exit: (code) => process.exit(code),
  });
}

// Configuration and environment failures print one line and exit 2; bugs keep their stack.
main().catch(exitOnStartupFailure);
