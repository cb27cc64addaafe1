import { Pool } from 'pg';
import { PostgresEventStore } from '@pix/event-store';
import { cobvProjection, replayProjection } from '@pix/read-models';

/** Builds rm_cobv (and its checkpoint) from the seeded log with `replayProjection`, untimed: the state item 2 leaves for the API. */
export async function replayCobV(url: string): Promise<void> {
  const pool = new Pool({ connectionString: url, max: 4 });
  const store = await PostgresEventStore.create({ pool, listen: false });
  try {
    await replayProjection(store, pool, cobvProjection);
  } finally {
    await store.close();
    await pool.end();
  }
}
