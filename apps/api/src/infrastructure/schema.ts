import type { Pool } from 'pg';
import { EVENT_STORE_MIGRATIONS, migrate, SNAPSHOTS_MIGRATION, type Migration } from '@pix/event-store';
import { projectionMigration, type Projection } from '@pix/read-models';
import { OUTBOX_MIGRATIONS } from '@pix/webhook-delivery';
import { LOCATION_IDS_MIGRATION } from './location-ids';
import { LIVE_PROJECTIONS } from './projections';

/**
 * Every table, index and sequence the API needs (the outbox too: local mode runs the notifier
 * in this process), in order. Versioned ids are shared with the notifier, which runs a subset.
 */
export function apiMigrations(projections: Projection<any>[] = LIVE_PROJECTIONS): Migration[] {
  return [...EVENT_STORE_MIGRATIONS, SNAPSHOTS_MIGRATION, LOCATION_IDS_MIGRATION, ...OUTBOX_MIGRATIONS, ...projections.map((p) => projectionMigration(p as Projection<unknown>))];
}

/** Start-up's one schema step: all of it in one transaction under the one schema lock. */
export function migrateApiSchema(pool: Pool): Promise<string[]> {
  return migrate(pool, apiMigrations());
}
