import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import type { Pool } from 'pg';
import { DuplicateEventIdError, WrongExpectedRevisionError, type EventStore } from '@pix/event-store';
import { kafkaTransport } from '../messaging/kafka-transport';
import { installConsumerLagMetrics, installDependencyMetrics, installHttpMetrics, installMetricsEndpoint, installOutboxMetrics, routeTemplateOf, type Metrics } from '@pix/observability';
import { authContextOf } from '../auth/auth-context';
import type { AppConfig } from '../config/config';
import { TOKEN_PATH } from '../access/token/token.controller';
import { EVENT_STORE, PROJECTIONS, READ_DB, READINESS } from '../infrastructure/tokens';
import { probeDatabase } from '../health/database-probe';
import type { Readiness } from '../health/readiness';
import type { Projections } from '../infrastructure/projections';
import { CashInWiring } from '../messaging/cash-in-wiring';
import { SettleCashIn } from '../settlement/settle-cash-in';
import { UNSETTLED_REASONS } from '../settlement/unsettled-cash-ins';
import { BATCH_REQUEST_STATUSES, batchRequestCounts } from './batch-request-counts';
import { projectionLags } from './projection-lag';

const OAUTH_ERRORS = new Set(['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope']);
const TOKEN_ERROR = Symbol('tokenError');
type WithTokenError = FastifyRequest & { [TOKEN_ERROR]?: string };

/** Everything the API exposes on /metrics: HTTP, event store, read models, batches, outbox, Kafka. */
export function installApiMetrics(app: NestFastifyApplication, config: AppConfig, metrics: Metrics): void {
  const fastify = app.getHttpAdapter().getInstance();
  instrumentAppends(app.get<EventStore>(EVENT_STORE), metrics);
  // The token endpoint answers OAuth2's own JSON: its error code is the bounded refusal reason.
  // A callback hook, not an async one: it runs on every response and needs no promise.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode !== 200 && routeTemplateOf(request) === TOKEN_PATH && typeof payload === 'string') {
      const code = /"error":"([a-z_]+)"/.exec(payload)?.[1];
      (request as WithTokenError)[TOKEN_ERROR] = code && OAUTH_ERRORS.has(code) ? code : 'other';
    }
    done(null, payload);
  });
  installHttpMetrics(fastify, metrics, (request, reply) => {
    if (routeTemplateOf(request) === TOKEN_PATH) {
      if (reply.statusCode === 200) metrics.tokensIssued.inc();
      else metrics.tokensRefused.inc({ error: (request as WithTokenError)[TOKEN_ERROR] ?? 'other' });
    }
    // The client limit applies once a client authenticated; before that, the address limit refused.
    if (reply.statusCode === 429) metrics.rateLimitRefusals.inc({ limit: authContextOf(request) ? 'client' : 'address' });
  });

  const settle = app.get(SettleCashIn, { strict: false });
  settle.unowned.observe = () => metrics.cashInsUnowned.inc();
  // From 0, so an alert on increase() sees the first.
  for (const reason of UNSETTLED_REASONS) metrics.cashInsUnsettled.inc({ reason }, 0);
  settle.unsettled.observe = (reason) => metrics.cashInsUnsettled.inc({ reason });
  for (const server of app.get(CashInWiring, { strict: false }).servers) server.onDeadLetters = metrics.deadLetterObserver(server.groupId);

  const store = app.get<EventStore>(EVENT_STORE);
  const projections = app.get<Projections>(PROJECTIONS);
  const db = app.get<Pool>(READ_DB);
  let lags: Promise<Awaited<ReturnType<typeof projectionLags>>> | undefined;
  const readLags = () => (lags ??= projectionLags(store, projections.checkpoints(), new Date()).finally(() => setTimeout(() => (lags = undefined), 1000).unref()));
  metrics.scrapedGauge('pix_projection_lag_events', 'Events in the store a read model has not applied yet (counted up to 10000).', ['projection'], async () =>
    Object.entries(await readLags()).map(([projection, lag]) => ({ labels: { projection }, value: lag.events })),
  );
  metrics.scrapedGauge('pix_projection_lag_seconds', 'Age of the oldest event a read model has not applied yet (0 when caught up).', ['projection'], async () =>
    Object.entries(await readLags()).map(([projection, lag]) => ({ labels: { projection }, value: lag.seconds })),
  );
  const batchRequests = batchRequestCounts(db);
  metrics.scrapedGauge('pix_batch_requests', 'Batch (lotecobv) creation requests by status: EM_PROCESSAMENTO pending (at each scrape), CRIADA and NEGADA decided (recounted at most once a minute).', ['status'], async () => {
    const counts = await batchRequests();
    return BATCH_REQUEST_STATUSES.map((status) => ({ labels: { status }, value: counts[status] }));
  });
  // Readiness's own probes: the database, and Kafka where configured (the cluster, no group stuck joining).
  const readiness = app.get<Readiness>(READINESS);
  installDependencyMetrics(metrics, {
    database: () => probeDatabase(db).then(() => true),
    ...(config.kafkaBrokers.length > 0 ? { kafka: () => readiness.dependencyUp('kafka') } : {}),
  });
  // Local mode runs the notifier in this process; its outbox is watched here too.
  if (config.mode === 'local') installOutboxMetrics(metrics, () => app.get(CashInWiring, { strict: false }).notifier?.outbox.stats());

  if (config.kafkaBrokers.length > 0) {
    const groups = [config.settlementGroupId, ...(config.mode === 'local' ? [config.notifierGroupId] : [])];
    const { ConsumerLagPoller, createKafka, KAFKA_RETRY } = kafkaTransport();
    const poller = new ConsumerLagPoller(createKafka(config.kafkaBrokers, 'pix-api-metrics', KAFKA_RETRY, app.get(CashInWiring, { strict: false }).kafkaLogs), groups);
    installConsumerLagMetrics(metrics, () => poller.lags());
    fastify.addHook('onReady', async () => poller.start());
    fastify.addHook('onClose', async () => poller.stop());
  }
  installMetricsEndpoint(fastify, metrics, { token: config.metricsToken, open: config.mode === 'local' });
}

/** Times every append, whatever the adapter, by replacing the instance's method (callers hold the instance). */
export function instrumentAppends(store: EventStore, metrics: Metrics): void {
  const append = store.appendToStream.bind(store);
  store.appendToStream = async (...args) => {
    const started = performance.now();
    let outcome = 'ok';
    try {
      return await append(...args);
    } catch (error) {
      outcome = error instanceof WrongExpectedRevisionError ? 'conflict' : error instanceof DuplicateEventIdError ? 'duplicate' : 'error';
      throw error;
    } finally {
      metrics.observeAppend(store.name, outcome, performance.now() - started);
    }
  };
}
