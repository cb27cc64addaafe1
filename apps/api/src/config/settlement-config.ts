import { DEFAULT_NOTIFIER_GROUP_ID, loadConsumerGroupId } from '@pix/messaging';

/** The settlement consumer group when SETTLEMENT_GROUP_ID is unset: the id every deployment used so far. */
export const DEFAULT_SETTLEMENT_GROUP_ID = 'pix-api-settlement';

/** SETTLEMENT_GROUP_ID: the API's settlement consumer group (see loadConsumerGroupId). */
export function loadSettlementGroupId(env: Record<string, string | undefined>, problems: string[]): string {
  return loadConsumerGroupId(env, 'SETTLEMENT_GROUP_ID', DEFAULT_SETTLEMENT_GROUP_ID, problems);
}

/**
 * NOTIFIER_GROUP_ID: in local mode with KAFKA_BROKERS the API runs the notifier's intake too, in
 * this group. It was fixed to the notifier app's default, so a local instance on a broker shared
 * with a deployment took some of that deployment's notifications and sent them to its own
 * webhooks (README audit, 2026-11-27).
 */
export function loadNotifierGroupId(env: Record<string, string | undefined>, problems: string[]): string {
  return loadConsumerGroupId(env, 'NOTIFIER_GROUP_ID', DEFAULT_NOTIFIER_GROUP_ID, problems);
}
