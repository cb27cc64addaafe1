import type { Pool } from 'pg';
import { CHECKPOINTS_DDL, tableDdl, type Projection } from './projection';

/**
 * Creates a projection's table. A table left by an earlier version that lacks a column the
 * projection now writes is dropped, and its checkpoint with it, so the read model is rebuilt
 * from the first event: read models are derived data, nothing is lost. Run under the
 * projection's lock. Returns true when it dropped a stale table.
 */
export async function ensureProjectionTable(db: Pick<Pool, 'query'>, projection: Projection<unknown>): Promise<boolean> {
  await db.query(CHECKPOINTS_DDL);
  const { rows } = await db.query<{ column_name: string }>(
    'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
    [projection.table],
  );
  const present = new Set(rows.map((r) => r.column_name));
  const stale = present.size > 0 && ['id', 'doc', ...projection.columns.map((c) => c.name)].some((name) => !present.has(name));
  if (stale) {
    await db.query(`DROP TABLE ${projection.table}`);
    await db.query('DELETE FROM projection_checkpoints WHERE name = $1', [projection.name]);
  }
  await db.query(tableDdl(projection, projection.table));
  return stale;
}
