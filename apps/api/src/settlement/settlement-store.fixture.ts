import { Pool } from 'pg';
import { PostgresEventStore } from '@pix/event-store';
import { createTestDatabase } from '@pix/testing';
import { enableInlineProjections, inlineOn } from '@pix/read-models';
import { LIVE_PROJECTIONS } from '../infrastructure/projections';
import { migrateApiSchema } from '../infrastructure/schema';

/** A scratch database with the API's schema and a store writing the live read models inline, as settlement runs. */
export async function settlementStore(name: string): Promise<{ pool: Pool; store: PostgresEventStore; close(): Promise<void> }> {
  const db = await createTestDatabase(name);
  const pool = new Pool({ connectionString: db.url, max: 4 });
  await migrateApiSchema(pool);
  const store = await PostgresEventStore.create({ pool, listen: false });
  await enableInlineProjections(store, pool, inlineOn(store, LIVE_PROJECTIONS));
  return {
    pool,
    store,
    close: async () => {
      await store.close();
      await pool.end();
      await db.drop();
    },
  };
}
