import { CASH_IN_DEAD_LETTER_TOPIC, CASH_IN_TOPIC } from '@pix/contracts';
import { Kafka, logLevel } from 'kafkajs';
import { registerCompressionCodecs } from './compression-codecs';
import { defaultKafkaLogs, type KafkaLogs } from './kafka-logs';

/**
 * kafkajs's retries, each wait capped at 3 s (its default grows to 30 s), about 50 s in all: a
 * consumer rides out a broker restart with its group membership intact (a consumer that crashes
 * meanwhile rejoins as a new member, which waits for the old member's session to time out) and
 * resumes within seconds of the broker's return. Past that, kafkajs restarts it anyway.
 */
export const KAFKA_RETRY = { retries: 20, initialRetryTime: 300, maxRetryTime: 3000 };

/**
 * Consumer group timings. A consumer that crashed while the broker was down (kafkajs restarts it)
 * rejoins as a new member, and the group waits for the old member's session to expire before it
 * hands out partitions again: 15 s instead of kafkajs's 30 s bounds that stall. Handlers that
 * retry (database down) send heartbeats meanwhile, so a slow message does not cost the membership.
 */
export const CONSUMER_TIMEOUTS = { sessionTimeout: 15_000, heartbeatInterval: 1500 };

/**
 * For a client that publishes while a request waits (the sandbox payer): with the broker down the
 * send fails within seconds and the request is answered 503, rather than held for a minute.
 * Connecting uses the client's retry, so this must be the client's, not only the producer's.
 */
export const KAFKA_PUBLISH_RETRY = { retries: 5, initialRetryTime: 300, maxRetryTime: 2000 };

/**
 * `logs`: where kafkajs's lines go (the app's logger, see KafkaLogs); an app passes its own to silence them at stop.
 * Every client reads snappy, lz4 and zstd batches too (compression-codecs.ts): a producer's
 * `compression.type` must not stop our consumers.
 */
export function createKafka(brokers: string[], clientId: string, retry = KAFKA_RETRY, logs: KafkaLogs = defaultKafkaLogs): Kafka {
  registerCompressionCodecs();
  return new Kafka({ clientId, brokers, logLevel: logLevel.ERROR, retry, logCreator: logs.logCreator });
}

/**
 * Creates the cash-in topic and its dead-letter topic when missing (idempotent). The dead-letter
 * topic takes messages of 8 MiB: a copy of a message the cash-in topic took carries our headers
 * beside it, and one stored without its value (validated-batch.ts) is the fallback, not the rule.
 * The cash-in topic's records carry the broker's append time (`LogAppendTime`): every consumer
 * judges a `horario` against the record's timestamp (cash-in-message.ts), and a producer's own
 * timestamp in 2099 let a Pix dated 2099 through (an audit, 2026-11-27). A topic an operator made
 * should be set the same way (README).
 */
export async function ensureCashInTopics(kafka: Kafka, partitions = 6, names = { cashIn: CASH_IN_TOPIC, deadLetters: CASH_IN_DEAD_LETTER_TOPIC }): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const wanted = [names.cashIn, names.deadLetters].filter((t) => !existing.has(t));
    const config = (topic: string) => ({
      configEntries: topic === names.deadLetters ? [{ name: 'max.message.bytes', value: String(8 * 1_048_576) }] : [{ name: 'message.timestamp.type', value: 'LogAppendTime' }],
    });
    if (wanted.length > 0) await admin.createTopics({ waitForLeaders: true, topics: wanted.map((topic) => ({ topic, numPartitions: partitions, ...config(topic) })) });
  } finally {
    await admin.disconnect();
  }
}
