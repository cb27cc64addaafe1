import { randomUUID } from 'node:crypto';
import type { IHeaders, Kafka, KafkaMessage, Message } from 'kafkajs';
import { describe, isTooLarge } from './retrying';
import { approximateBytes, DEAD_LETTER_SEND_BYTES, inSends, type TopicContract } from './validated-batch';

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
  /** The message's own headers as first sent (`x-correlation-id`…), without the `dlt-*` ones (readDeadLetters always sets them). */
  headers?: IHeaders;
  /** `dlt-omitted`: what was too large to store here (the value…) and where the message remains. */
  omitted?: string;
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
            const letter = storedLetter(partition, message);
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

/** A dead letter as read: the `dlt-*` headers say where, who and why; the others are the message's own. */
function storedLetter(partition: number, message: KafkaMessage): StoredDeadLetter {
  const own = Object.entries(message.headers ?? {}).filter(([name]) => !name.startsWith('dlt-'));
  const omitted = header(message, 'dlt-omitted') || undefined;
  const letter = { id: `${partition}/${message.offset}`, source: header(message, 'dlt-source'), consumer: header(message, 'dlt-consumer'), reason: header(message, 'dlt-reason') };
  return { ...letter, key: message.key, value: message.value, headers: Object.fromEntries(own), ...(omitted ? { omitted } : {}) };
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
  /** Not published: still refused by the contract (every consumer would refuse it again), not stored whole, or larger than the topic takes. */
  invalid: { letter: StoredDeadLetter; error: string }[];
}

/** A replay that failed part way (the broker away): what was published, and what was not or is not known to be. */
export class ReplayInterrupted extends Error {
  constructor(
    /** What this call settled before the failure: `replayed` holds only confirmed publishes. */
    readonly outcome: ReplayOutcome,
    /** Not published, or (the failed send) perhaps in part: replaying them again is harmless. */
    readonly unconfirmed: StoredDeadLetter[],
    readonly failure: unknown,
  ) {
    const { replayed, copies, invalid } = outcome;
    super(
      `replay stopped after ${replayed.length} of ${replayed.length + unconfirmed.length} publish(es): ${describe(failure)}. ` +
        `Replayed: ${idRanges(replayed) || 'none'}. Not replayed (or not confirmed; replaying them again is harmless): ${idRanges(unconfirmed)}. ` +
        `Skipped: ${copies.length} copies, ${invalid.length} invalid or too large.`,
    );
  }
}

/** Dead-letter ids, consecutive offsets of a partition as one range: `0/0-499, 1/3`. */
export function idRanges(letters: StoredDeadLetter[]): string {
  const ranges: { partition: string; from: number; to: number }[] = [];
  for (const { id } of letters) {
    const [partition, offset] = [id.split('/')[0], Number(id.split('/')[1])];
    const last = ranges[ranges.length - 1];
    if (last && last.partition === partition && last.to + 1 === offset) last.to = offset;
    else ranges.push({ partition, from: offset, to: offset });
  }
  return ranges.map((r) => `${r.partition}/${r.from}${r.to > r.from ? `-${r.to}` : ''}`).join(', ');
}

/**
 * Publishes `letters` again to `topic`, as they were first sent (key, bytes and headers), with a
 * `dlt-replayed-from` header naming the dead letter. Consumers are idempotent by message
 * identity (ADR 7: by endToEndId), so a group that had already processed it changes nothing and
 * a second replay is harmless. One publish per source; what the contract still refuses is skipped.
 * Published in order in sends bounded by bytes (one send of every letter exceeded the broker's
 * 1 MB and published none); `onSent` is told after each. A failure part way rejects with
 * ReplayInterrupted, saying what was replayed and what not.
 */
export async function replayDeadLetters(kafka: Kafka, letters: StoredDeadLetter[], deadLetterTopic: string, topic: string, contract: TopicContract, onSent?: (sent: StoredDeadLetter[]) => void): Promise<ReplayOutcome> {
  const outcome: ReplayOutcome = { replayed: [], copies: [], invalid: [] };
  const chosen: StoredDeadLetter[] = [];
  const sources = new Set<string>();
  for (const letter of letters) {
    // Judged as it will be consumed: the replayed record is stamped now.
    const error = letter.omitted ? `not stored whole here (${letter.omitted})` : contract.parse(letter.value, new Date()).error;
    if (error !== undefined) outcome.invalid.push({ letter, error });
    else if (letter.source && sources.has(letter.source)) outcome.copies.push(letter);
    else {
      sources.add(letter.source);
      chosen.push(letter);
    }
  }
  if (chosen.length === 0) return outcome;
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    // Letters stored before headers were kept have none: content-type as the publisher sets it.
    const asSent = (l: StoredDeadLetter): Message => ({ key: l.key, value: l.value, headers: { 'content-type': 'application/json', ...l.headers, 'dlt-replayed-from': `${deadLetterTopic}/${l.id}` } });
    const send = (some: StoredDeadLetter[]) => producer.send({ topic, acks: -1, messages: some.map(asSent) });
    await publishInSends(send, inSends(chosen, DEAD_LETTER_SEND_BYTES, (l) => approximateBytes(asSent(l))), outcome, onSent);
  } finally {
    await producer.disconnect();
  }
  return outcome;
}

/**
 * Each of `sends` through `send`, in order, into `outcome.replayed`; a letter the topic refuses as
 * too large goes to `outcome.invalid` and the rest goes on. Any other failure (the broker away)
 * stops it: ReplayInterrupted says what was confirmed and what was not.
 */
export async function publishInSends(send: (some: StoredDeadLetter[]) => Promise<unknown>, sends: StoredDeadLetter[][], outcome: ReplayOutcome, onSent?: (sent: StoredDeadLetter[]) => void): Promise<void> {
  const settled = new Set<StoredDeadLetter>();
  try {
    for (const some of sends) await publishSome(send, some, outcome, settled, onSent);
  } catch (error) {
    throw new ReplayInterrupted(outcome, sends.flat().filter((l) => !settled.has(l)), error);
  }
}

/** `some` in one send; when the topic refuses it as too large, each alone, and one too large alone is skipped. */
async function publishSome(send: (some: StoredDeadLetter[]) => Promise<unknown>, some: StoredDeadLetter[], outcome: ReplayOutcome, settled: Set<StoredDeadLetter>, onSent?: (sent: StoredDeadLetter[]) => void): Promise<void> {
  const fits = await send(some).then(() => true, (error) => (isTooLarge(error) ? false : Promise.reject(error)));
  if (fits) {
    outcome.replayed.push(...some);
    onSent?.(some);
  } else if (some.length === 1) outcome.invalid.push({ letter: some[0], error: 'larger than the topic takes (the broker answered MESSAGE_TOO_LARGE)' });
  else {
    for (const letter of some) await publishSome(send, [letter], outcome, settled, onSent);
    return;
  }
  for (const letter of some) settled.add(letter);
}
