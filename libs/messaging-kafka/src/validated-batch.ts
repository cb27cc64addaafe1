import { CORRELATION_ID_HEADER, saneCorrelationId, type CashInTrace } from '@pix/contracts';
import type { KafkaMessage, Message } from 'kafkajs';
import { isTooLarge } from './retrying';

/**
 * How a topic's messages are read: the contracts library's parser, and where refused ones go.
 * `publishedAt` is the record's own timestamp, the same for every consumer group that reads it.
 */
export interface TopicContract<T = unknown> {
  parse(value: Buffer | null, publishedAt: Date): { value?: T; error?: string };
  deadLetterTopic: string;
}

/** A message's trace: its `x-correlation-id` header when that is a sane id (it ends up in log lines). */
function traceOf(message: KafkaMessage): CashInTrace | undefined {
  const header = message.headers?.[CORRELATION_ID_HEADER];
  const raw = Array.isArray(header) ? header[0] : header;
  // A sane id is at most 100 ASCII bytes: a longer header is not decoded at all.
  const correlationId = saneCorrelationId(Buffer.isBuffer(raw) ? (raw.length <= 100 ? raw.toString('latin1') : undefined) : raw);
  return correlationId ? { correlationId } : undefined;
}

/**
 * A slice of a fetched batch, validated: `valid` goes to the handler in order, `traces[i]` beside
 * `valid[i]`; `deadLetters` are
 * the refused messages as they are sent to the dead-letter topic, the original key, bytes and
 * headers with `dlt-reason`, `dlt-consumer` and `dlt-source` (`topic/partition/offset`) headers.
 */
export function validateBatch<T>(messages: KafkaMessage[], where: Where, contract: TopicContract<T>) {
  const valid: T[] = [];
  const traces: (CashInTrace | undefined)[] = [];
  /** The message each valid value came from, to dead-letter it as it was sent if it must be (quarantine.ts). */
  const sources: KafkaMessage[] = [];
  const deadLetters: DeadLetter[] = [];
  for (const message of messages) {
    const parsed = contract.parse(message.value, recordTimestamp(message));
    if (parsed.value !== undefined) {
      valid.push(parsed.value);
      traces.push(traceOf(message));
      sources.push(message);
      continue;
    }
    deadLetters.push(deadLetterOf(message, parsed.error ?? 'invalid', where));
  }
  return { valid, traces, sources, deadLetters };
}

/** The record's timestamp (kafkajs gives milliseconds as text, "-1" when there is none: an invalid Date). */
export function recordTimestamp(message: Pick<KafkaMessage, 'timestamp'>): Date {
  const ms = Number(message.timestamp);
  return new Date(Number.isSafeInteger(ms) && ms >= 0 ? ms : Number.NaN);
}

export interface Where {
  topic: string;
  partition: number;
  consumerName: string;
}

/** `correlationId`: the refused message's own, named on the line that reports it. */
export type DeadLetter = Message & { reason: string; source: string; correlationId?: string };

/** Most characters of a `dlt-reason`: a reason that lists every unknown member of a message can be larger than the message. */
export const MAX_REASON_CHARS = 1000;

/**
 * A message as it goes to the dead-letter topic: its own key, bytes and headers (ADR 16: kept to be
 * published again; `x-correlation-id` among them), and why (capped), who and from where.
 */
export function deadLetterOf(message: KafkaMessage, reason: string, where: Where): DeadLetter {
  const source = `${where.topic}/${where.partition}/${message.offset}`;
  const capped = cappedReason(reason);
  const headers = { ...message.headers, 'dlt-reason': capped, 'dlt-consumer': where.consumerName, 'dlt-source': source };
  return { key: message.key ?? null, value: message.value, headers, reason: capped, source, correlationId: traceOf(message)?.correlationId };
}

/** `reason`, or its first characters ending with an ellipsis and its full length, MAX_REASON_CHARS in all. */
export function cappedReason(reason: string): string {
  if (reason.length <= MAX_REASON_CHARS) return reason;
  const tail = `… (${reason.length} characters in all)`;
  let head = reason.slice(0, MAX_REASON_CHARS - tail.length);
  // A pair cut in half would be a lone surrogate, which UTF-8 cannot carry.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1) + ' ';
  return head + tail;
}

/** Bytes per request to the dead-letter topic (and of a replay), well under the broker's default 1 MB per record batch. */
export const DEAD_LETTER_SEND_BYTES = 256 * 1024;

/** About what a message takes in a record batch: key, value, headers and a generous per-record overhead. */
export function approximateBytes(message: Message): number {
  let bytes = 64 + byteLength(message.key) + byteLength(message.value);
  for (const [name, value] of Object.entries(message.headers ?? {})) for (const one of [value ?? []].flat()) bytes += 16 + Buffer.byteLength(name) + byteLength(one);
  return bytes;
}

const byteLength = (data: Buffer | string | null | undefined) => (data == null ? 0 : Buffer.byteLength(data));

/** `items` in order, cut into runs of at most `maxBytes` (by `sizeOf`) each, at least one item a run. */
export function inSends<T>(items: T[], maxBytes = DEAD_LETTER_SEND_BYTES, sizeOf: (item: T) => number = (m) => approximateBytes(m as Message)): T[][] {
  const sends: T[][] = [];
  let bytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (sends.length === 0 || bytes + size > maxBytes) {
      sends.push([]);
      bytes = 0;
    }
    sends[sends.length - 1].push(item);
    bytes += size;
  }
  return sends;
}

/**
 * Stores `letters` in the dead-letter topic through `send`, in order, in sends bounded by bytes
 * (inSends): all of a slice's refused messages in one request exceeded the broker's 1 MB.
 * `retry` retries a send while it fails (broker down); a letter the topic refuses as too large
 * (a message as large as its own topic takes, plus our headers) is stored without its value, or
 * without key, value and headers if that is not enough, with a `dlt-omitted` header saying what
 * and where the message remains, and `warn` is told: a refused message never stalls a partition.
 */
export async function storeDeadLetters(send: (letters: Message[]) => Promise<unknown>, letters: DeadLetter[], retry: (work: () => Promise<unknown>) => Promise<void>, warn: (line: string) => void): Promise<void> {
  /** One send: false when the broker answered that it is too large (kafkajs does not retry that). */
  const attempt = (some: DeadLetter[]) => send(some.map(({ key, value, headers }) => ({ key, value, headers }))).then(() => true, (error) => (isTooLarge(error) ? false : Promise.reject(error)));
  /** Whether the topic took them, after retrying other failures (broker down) for as long as `retry` does. */
  const stored = async (some: DeadLetter[]) => {
    let fits = true;
    await retry(async () => (fits = await attempt(some)));
    return fits;
  };
  for (const some of inSends(letters)) {
    if (await stored(some)) continue;
    for (const letter of some) {
      // Alone first, unless it was alone already; then smaller and smaller.
      const versions = [...(some.length > 1 ? [letter] : []), ...smallerVersions(letter)];
      const version = await firstStored(versions, stored);
      // Refused even bare: a topic set up smaller than a reason; retried (and logged) until fixed.
      if (version === undefined) await retry(async () => (await attempt(versions.slice(-1))) || Promise.reject(new Error('too large even without key, value and headers')));
      else if (version !== letter) warn(`${letter.source}: its dead letter (${approximateBytes(letter)} bytes) is larger than the dead-letter topic takes; stored without its ${version.headers!['dlt-omitted']}`);
    }
  }
}

async function firstStored(versions: DeadLetter[], stored: (some: DeadLetter[]) => Promise<boolean>): Promise<DeadLetter | undefined> {
  for (const version of versions) if (await stored([version])) return version;
  return undefined;
}

const OUR_HEADERS = ['dlt-reason', 'dlt-consumer', 'dlt-source'];

/** The letter without its value, then also without its key and the message's own headers: the bytes remain at `dlt-source`. */
function smallerVersions(letter: DeadLetter): DeadLetter[] {
  const bytes = letter.value == null ? 0 : Buffer.byteLength(letter.value);
  const where = `the message remains at ${letter.source} (topic/partition/offset) until that topic's retention drops it`;
  // Ours only: a message's own header may be named dlt-… too, and be what is too large.
  const ours = Object.fromEntries(Object.entries(letter.headers ?? {}).filter(([name]) => OUR_HEADERS.includes(name)));
  return [
    { ...letter, value: null, headers: { ...letter.headers, 'dlt-omitted': `value of ${bytes} bytes, too large for this topic; ${where}` } },
    { ...letter, key: null, value: null, headers: { ...ours, 'dlt-omitted': `key, value of ${bytes} bytes and headers, too large for this topic; ${where}` } },
  ];
}
