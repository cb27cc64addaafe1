import { createHash } from 'node:crypto';
import path from 'node:path';
import { DEFAULT_NOTIFIER_GROUP_ID, loadConsumerGroupId } from '@pix/messaging';

/** The settlement consumer group when SETTLEMENT_GROUP_ID is unset in production: the id every deployment used so far. */
export const DEFAULT_SETTLEMENT_GROUP_ID = 'pix-api-settlement';

/** A deployment's default groups: a local instance in one takes (some of) that deployment's cash-ins. */
const DEPLOYMENT_GROUPS = [DEFAULT_SETTLEMENT_GROUP_ID, DEFAULT_NOTIFIER_GROUP_ID];

export interface ConsumerGroups {
  /** SETTLEMENT_GROUP_ID: the API's settlement consumer group on KAFKA_BROKERS. */
  settlementGroupId: string;
  /** NOTIFIER_GROUP_ID: in local mode with KAFKA_BROKERS the API runs the notifier's intake too, in this group. */
  notifierGroupId: string;
}

/**
 * Local mode's default groups, of this instance alone: `pix-local-<8 hex of the absolute
 * DATA_DIR>-settlement` and `…-notifier`. The same folder gives the same groups after a restart,
 * so the offsets committed before it still count.
 */
export function localConsumerGroups(dataDir: string): ConsumerGroups {
  const instance = `pix-local-${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 8)}`;
  return { settlementGroupId: `${instance}-settlement`, notifierGroupId: `${instance}-notifier` };
}

/**
 * The consumer groups (see loadConsumerGroupId for what an id may be). Production defaults to the
 * deployment groups. Local mode defaulted to them too, so a developer's instance on a broker a
 * deployment also used settled 3 of its 6 cash-ins as no receiver's here (operator audit,
 * 2026-11-27): it defaults to groups of its own, and refuses a deployment's group by name.
 */
export function loadConsumerGroups(env: Record<string, string | undefined>, local: boolean, dataDir: string, problems: string[]): ConsumerGroups {
  const fallback = local ? localConsumerGroups(dataDir) : { settlementGroupId: DEFAULT_SETTLEMENT_GROUP_ID, notifierGroupId: DEFAULT_NOTIFIER_GROUP_ID };
  const groups = {
    settlementGroupId: loadConsumerGroupId(env, 'SETTLEMENT_GROUP_ID', fallback.settlementGroupId, problems),
    notifierGroupId: loadConsumerGroupId(env, 'NOTIFIER_GROUP_ID', fallback.notifierGroupId, problems),
  };
  if (local)
    for (const variable of ['SETTLEMENT_GROUP_ID', 'NOTIFIER_GROUP_ID'])
      if (DEPLOYMENT_GROUPS.includes(env[variable] ?? ''))
        problems.push(
          `${variable}=${env[variable]} is a deployment's default consumer group: a local instance in it would take that deployment's cash-ins; leave it unset (local mode uses groups of its own, from DATA_DIR) or name another`,
        );
  return groups;
}
