import type { FastifyInstance } from 'fastify';
import { ConsumerLagPoller, createKafka, KAFKA_RETRY } from '@pix/messaging-kafka';
import type { NotifierCore } from '@pix/messaging';
import { installConsumerLagMetrics, installDependencyMetrics, installHttpMetrics, installMetricsEndpoint, installOutboxMetrics, type Metrics } from '@pix/observability';
import type { NotifierConfig } from './config';
import { probeOutbox, type KafkaState } from './notifier.module';

/** The notifier's /metrics: HTTP, the outbox, its dependencies, its consumer group's lag, deliveries (through the worker's observer). */
export function installNotifierMetrics(fastify: FastifyInstance, config: NotifierConfig, metrics: Metrics, core: NotifierCore, kafka: KafkaState): void {
  installHttpMetrics(fastify, metrics);
  installOutboxMetrics(metrics, () => core.outbox.stats());
  kafka.intake.onDeadLetters = metrics.deadLetterObserver(config.groupId);
  // Readiness's own probes (the cluster's answer is cached for 2 s, so scrapes add no load).
  installDependencyMetrics(metrics, { database: () => probeOutbox(core).then(() => true), kafka: () => kafka.up() });
  const poller = new ConsumerLagPoller(createKafka(config.kafkaBrokers, 'pix-notifier-metrics', KAFKA_RETRY, kafka.logs), [config.groupId]);
  installConsumerLagMetrics(metrics, () => poller.lags());
  fastify.addHook('onReady', async () => poller.start());
  fastify.addHook('onClose', async () => poller.stop());
  // A production process: open only with METRICS_TOKEN.
  installMetricsEndpoint(fastify, metrics, { token: config.metricsToken, open: false });
}
