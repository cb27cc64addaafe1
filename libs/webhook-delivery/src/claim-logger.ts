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
