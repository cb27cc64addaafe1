import { withCorrelationId } from '@pix/observability';
import type { ClaimedNotification } from './claim';
import type { DeliveryLogger } from './types';

/**
 * The delivery's lines under the correlation id of the request that published its cash-in
 * (ADR 17: explicit, for one synchronous call). A batch from several requests is logged under the
 * first, and its line lists them all; a cash-in published without one logs as before.
 */
export function claimLogger(logger: DeliveryLogger, claim: Pick<ClaimedNotification, 'correlationIds'>): DeliveryLogger {
  const ids = [...new Set(claim.correlationIds.filter((id): id is string => typeof id === 'string' && id !== ''))];
  if (ids.length === 0) return logger;
  const suffix = ids.length > 1 ? ` (correlation ids ${ids.join(', ')})` : '';
  const named = (write: (message: string) => void) => (message: string) => withCorrelationId(ids[0], () => write(`${message}${suffix}`));
  const warn = logger.warn;
  return {
    log: named((m) => logger.log(m)),
    error: named((m) => logger.error(m)),
    ...(warn ? { warn: named((m) => warn.call(logger, m)) } : {}),
  };
}

/** How a delivery line ends when its notification became dead: what happened, and what an operator does about it. */
export const DEAD_NOTIFICATION =
  'retry schedule exhausted, kept as dead; once the receiver answers 2xx, send it again: POST /notifier/resend with its endToEndIds, or {"status":"dead"} and a period';

/** How many of a batch's endToEndIds its lines name before "and N more". */
const NAMED_IDS = 3;
/** Each item's endToEndId in a body we composed (JSON.stringify of the official Pix: no spaces). */
const END_TO_END_ID = /"endToEndId":"([^"\\]+)"/g;

/**
 * What a delivery carried, as its lines name it: the key and the endToEndId (a batch: the first
 * few and how many more), so a line can be found from what a customer quotes. Read from the body
 * the claim already holds (its first few matches only, no JSON parse); receiver answers are never
 * logged. Keys that are a CPF or CNPJ are scrubbed by the application logger like any other.
 */
export function carried(claim: Pick<ClaimedNotification, 'chave' | 'body' | 'items'>): string {
  const ids: string[] = [];
  END_TO_END_ID.lastIndex = 0;
  for (let m = END_TO_END_ID.exec(claim.body); m && ids.length < NAMED_IDS; m = END_TO_END_ID.exec(claim.body)) ids.push(m[1]);
  END_TO_END_ID.lastIndex = 0;
  const total = Math.max(claim.items.length, ids.length);
  if (total <= 1) return `chave ${claim.chave}, endToEndId ${ids[0] ?? '(none)'}`;
  const more = total - ids.length;
  return `chave ${claim.chave}, endToEndIds ${ids.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}
