import { CORRELATION_ID_HEADER, saneCorrelationId, type CashInTrace } from '@pix/contracts';
import type { KafkaMessage, Message } from 'kafkajs';

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
 * the refused messages as they are sent to the dead-letter topic, the original key and bytes
 * with `dlt-reason`, `dlt-consumer` and `dlt-source` (`topic/partition/offset`) headers.
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

export type DeadLetter = Message & { reason: string; source: string };

/** A message as it goes to the dead-letter topic: its own key and bytes, and why, who and from where. */
export function deadLetterOf(message: KafkaMessage, reason: string, where: Where): DeadLetter {
  const source = `${where.topic}/${where.partition}/${message.offset}`;
  return { key: message.key ?? null, value: message.value, headers: { 'dlt-reason': reason, 'dlt-consumer': where.consumerName, 'dlt-source': source }, reason, source };
}
