import { randomUUID } from 'node:crypto';
import type { Kafka, KafkaMessage } from 'kafkajs';
import type { TopicContract } from './validated-batch';

/** A message of a dead-letter topic, as deadLetterOf (validated-batch.ts) stored it. */
export interface StoredDeadLetter {
  /** `partition/offset` in the dead-letter topic: what an operator names to replay it. */
  id: string;
  /** `dlt-source`: where it was consumed, `topic/partition/offset`. Every consumer group that refused it stored a copy. */
  source: string;
  /** `dlt-consumer`: the consumer group that refused it. */
  consumer: string;
  /** `dlt-reason`. */
  reason: string;
  key: Buffer | null;
  value: Buffer | null;
}

const header = (message: KafkaMessage, name: string) => {
  const raw = message.headers?.[name];
  const first = Array.isArray(raw) ? raw[0] : raw;
  return first === undefined ? '' : first.toString();
};

/**
 * Every message of `topic` up to its end as of the call (what arrives meanwhile is left for the
 * next call), in partition and offset order. Read by a consumer group of its own that commits
 * nothing and is deleted afterwards: reading changes nothing. Rejects past `timeoutMs`.
 */
export async function readDeadLetters(kafka: Kafka, topic: string, timeoutMs = 60_000): Promise<StoredDeadLetter[]> {
  const ends = await partitionEnds(kafka, topic);
  if (ends.size === 0) return [];
  const groupId = `pix-dead-letters-reader-${randomUUID()}`;
  const consumer = kafka.consumer({ groupId });
  const found: { partition: number; offset: bigint; letter: StoredDeadLetter }[] = [];
  const unread = new Set(ends.keys());
  let timer: NodeJS.Timeout | undefined;
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${topic}: not read to its end within ${timeoutMs / 1000} s (partitions left: ${[...unread].join(', ')})`)), timeoutMs);
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            const end = ends.get(partition);
            const offset = BigInt(message.offset);
            if (end === undefined || offset >= end) return;
            const letter = { id: `${partition}/${message.offset}`, source: header(message, 'dlt-source'), consumer: header(message, 'dlt-consumer'), reason: header(message, 'dlt-reason'), key: message.key, value: message.value };
            found.push({ partition, offset, letter });
            if (offset + 1n >= end && unread.delete(partition) && unread.size === 0) resolve();
          },
        })
        .catch(reject);
    });
  } finally {
    clearTimeout(timer);
    await consumer.disconnect();
    await deleteGroup(kafka, groupId);
  }
  return found.sort((a, b) => a.partition - b.partition || (a.offset < b.offset ? -1 : 1)).map((f) => f.letter);
}

/** Per partition with messages, the offset after its last one; empty when the topic is absent. */
async function partitionEnds(kafka: Kafka, topic: string): Promise<Map<number, bigint>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) return new Map();
    const offsets = await admin.fetchTopicOffsets(topic);
    return new Map(offsets.filter((o) => BigInt(o.high) > BigInt(o.low)).map((o) => [o.partition, BigInt(o.high)]));
  } finally {
    await admin.disconnect();
  }
}

async function deleteGroup(kafka: Kafka, groupId: string): Promise<void> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.deleteGroups([groupId]);
  } catch {
    // An empty group the broker forgets by itself; nothing of ours depends on it.
  } finally {
    await admin.disconnect();
  }
}

export interface ReplayOutcome {
  /** Published again to the topic, one per source. */
  replayed: StoredDeadLetter[];
  /** Copies of a source already replayed in this call (another consumer group refused the same message). */
  copies: StoredDeadLetter[];
  /** Still refused by the contract: not published (every consumer would refuse it again). */
  invalid: { letter: StoredDeadLetter; error: string }[];
}

/**
 * Publishes `letters` again to `topic`, as they were first sent (key and bytes), with a
 * `dlt-replayed-from` header naming the dead letter. Consumers are idempotent by message
 * identity (ADR 7: by endToEndId), so a group that had already processed it changes nothing and
 * a second replay is harmless. One publish per source; what the contract still refuses is skipped.
 */
export async function replayDeadLetters(kafka: Kafka, letters: StoredDeadLetter[], deadLetterTopic: string, topic: string, contract: TopicContract): Promise<ReplayOutcome> {
  const outcome: ReplayOutcome = { replayed: [], copies: [], invalid: [] };
  const sources = new Set<string>();
  for (const letter of letters) {
    // Judged as it will be consumed: the replayed record is stamped now.
    const error = contract.parse(letter.value, new Date()).error;
    if (error !== undefined) outcome.invalid.push({ letter, error });
    else if (letter.source && sources.has(letter.source)) outcome.copies.push(letter);
    else {
      sources.add(letter.source);
      outcome.replayed.push(letter);
    }
  }
  if (outcome.replayed.length === 0) return outcome;
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    await producer.send({
      topic,
      acks: -1,
      messages: outcome.replayed.map((l) => ({ key: l.key, value: l.value, headers: { 'content-type': 'application/json', 'dlt-replayed-from': `${deadLetterTopic}/${l.id}` } })),
    });
  } finally {
    await producer.disconnect();
  }
  return outcome;
}
