import type { FastifyInstance } from 'fastify';
import { ConsumerLagPoller, createKafka, KAFKA_RETRY, type KafkaLogs } from '@pix/messaging-kafka';
import { installConsumerLagMetrics, installHttpMetrics, installMetricsEndpoint, installOutboxMetrics, type Metrics } from '@pix/observability';
import type { NotificationOutbox } from '@pix/webhook-delivery';
import type { NotifierConfig } from './config';

/** The notifier's /metrics: HTTP, the outbox, its consumer group's lag, deliveries (through the worker's observer). */
export function installNotifierMetrics(fastify: FastifyInstance, config: NotifierConfig, metrics: Metrics, outbox: NotificationOutbox, kafkaLogs?: KafkaLogs): void {
  installHttpMetrics(fastify, metrics);
  installOutboxMetrics(metrics, () => outbox.stats());
  const poller = new ConsumerLagPoller(createKafka(config.kafkaBrokers, 'pix-notifier-metrics', KAFKA_RETRY, kafkaLogs), [config.groupId]);
  installConsumerLagMetrics(metrics, () => poller.lags());
  fastify.addHook('onReady', async () => poller.start());
  fastify.addHook('onClose', async () => poller.stop());
  // A production process: open only with METRICS_TOKEN.
  installMetricsEndpoint(fastify, metrics, { token: config.metricsToken, open: false });
}
