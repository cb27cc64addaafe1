/** The notifier's consumer group when NOTIFIER_GROUP_ID is unset (the notifier app, and the API's intake in local mode). */
export const DEFAULT_NOTIFIER_GROUP_ID = 'pix-notifier';

/**
 * A consumer group id from `variable`, or `fallback` when unset. Two deployments on one broker
 * (staging and production, two installations, a developer's local mode) must not share a group,
 * or Kafka splits the cash-ins between their databases. Kafka's own limit is 249 characters; the
 * character set keeps the id safe in readiness keys, metric labels and log lines, and a set but
 * empty or blank value is refused rather than taken as the default (it would share the default's
 * offsets): the one setting for which empty is not unset (ADR 18), so callers pass the given env.
 */
export function loadConsumerGroupId(env: Record<string, string | undefined>, variable: string, fallback: string, problems: string[]): string {
  const groupId = env[variable] ?? fallback;
  if (!/^[A-Za-z0-9._-]{1,249}$/.test(groupId))
    problems.push(`${variable} must be 1 to 249 letters, digits, ".", "_" or "-" (a Kafka consumer group id), got "${groupId}"`);
  return groupId;
}
