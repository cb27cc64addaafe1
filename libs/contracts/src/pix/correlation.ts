/** The header, on an HTTP request or answer and on a Kafka message alike, naming the request it belongs to (ADR 17). */
export const CORRELATION_ID_HEADER = 'x-correlation-id';

const SANE = /^[A-Za-z0-9._:-]{1,100}$/;

/** A sender's correlation id when it is 1 to 100 of `A-Z a-z 0-9 . _ : -`, else undefined: it is written into log lines. */
export function saneCorrelationId(value: unknown): string | undefined {
  return typeof value === 'string' && SANE.test(value) ? value : undefined;
}

/** What travels beside a cash-in: the correlation id of the request that made it, for the lines its consumers log. */
export interface CashInTrace {
  correlationId?: string;
}
