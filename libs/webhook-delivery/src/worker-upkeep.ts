import type { Pool } from 'pg';
import { repairDueKeys } from './due-keys-sql';
import { INTAKE_SKIPPED_RETENTION_MS, pruneIntakeSkipped } from './intake-skipped';
import type { LeaseOwner } from './lease-owner';
import type { Clock, DeliveryLogger } from './types';

/** How often a worker checks that every key with pending notifications is in webhook_due_keys. */
const REPAIR_INTERVAL_MS = 60_000;
/** How often a worker looks for the leases of workers whose database session has ended (lease-owner.ts). */
const DEAD_LEASES_INTERVAL_MS = 1000;

/**
 * A delivery worker's periodic chores, run by its loop before each claim, each at its own
 * interval (at start, then when due): none of them throws into the loop.
 */
export class WorkerUpkeep {
  private nextRepairAt = 0;
  private nextDeadLeasesAt = 0;

  constructor(
    private readonly pool: Pool,
    private readonly owner: LeaseOwner,
    private readonly clock: Clock,
    private readonly logger: DeliveryLogger,
  ) {}

  async run(): Promise<void> {
    await this.checkDueKeys();
    await this.releaseDeadLeases();
  }

  /**
   * The safety net of webhook_due_keys (due-keys-sql.ts), and the pruning of endToEndIds skipped
   * at intake past their retention (intake-skipped.ts).
   */
  private async checkDueKeys(): Promise<void> {
    if (performance.now() < this.nextRepairAt) return;
    this.nextRepairAt = performance.now() + REPAIR_INTERVAL_MS;
    try {
      const repaired = await repairDueKeys(this.pool);
      if (repaired > 0) this.logger.error(`webhook delivery: ${repaired} keys with pending notifications were missing from webhook_due_keys or due too late there (written by an older version, or by hand?); repaired`);
      await pruneIntakeSkipped(this.pool, new Date(this.clock.now().getTime() - INTAKE_SKIPPED_RETENTION_MS));
    } catch (error) {
      this.logger.error(`webhook delivery: due keys repair or skipped endToEndIds' pruning failed: ${(error as Error).message}`);
    }
  }

  /** Makes the deliveries of dead workers due now; the loop's claim that follows takes them. */
  private async releaseDeadLeases(): Promise<void> {
    if (performance.now() < this.nextDeadLeasesAt) return;
    this.nextDeadLeasesAt = performance.now() + DEAD_LEASES_INTERVAL_MS;
    await this.owner.releaseDead(this.clock.now());
  }
}
