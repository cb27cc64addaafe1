import type * as KafkaTransport from '@pix/messaging-kafka';

/**
 * The Kafka transport, loaded only where KAFKA_BROKERS is set: kafkajs is ~10 MiB of memory a
 * process without a broker (local mode, a write-only API) would carry for nothing (issue 11's
 * memory budget).
 */
export function kafkaTransport(): typeof KafkaTransport {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous on purpose: loaded on first use
  return require('@pix/messaging-kafka') as typeof KafkaTransport;
}
