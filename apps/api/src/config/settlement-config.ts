/** The settlement consumer group when SETTLEMENT_GROUP_ID is unset: the id every deployment used so far. */
export const DEFAULT_SETTLEMENT_GROUP_ID = 'pix-api-settlement';

/**
 * SETTLEMENT_GROUP_ID: the API's settlement consumer group. Two deployments on one broker
 * (staging and production, two installations) must not share it, or Kafka splits the cash-ins
 * between their databases. Kafka's own limit is 249 characters; the character set keeps the id
 * safe in readiness keys, metric labels and log lines.
 */
export function loadSettlementGroupId(env: Record<string, string | undefined>, problems: string[]): string {
  const groupId = env.SETTLEMENT_GROUP_ID ?? DEFAULT_SETTLEMENT_GROUP_ID;
  if (!/^[A-Za-z0-9._-]{1,249}$/.test(groupId))
    problems.push(`SETTLEMENT_GROUP_ID must be 1 to 249 letters, digits, ".", "_" or "-" (a Kafka consumer group id), got "${groupId}"`);
  return groupId;
}
