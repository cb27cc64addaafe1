import type { Pool, PoolClient } from 'pg';
import { inTransaction } from './transaction';

/**
 * One step of start-up DDL. Versioned steps run once per database and are recorded in
 * `schema_migrations`; repeatable ones (derived tables whose shape is checked against the
 * code, like read models) run on every start. Both only ever run under the schema lock.
 */
export interface Migration {
  /** Stable and unique across both apps: the same id means the same DDL. */
  id: string;
  repeatable?: boolean;
  up(client: PoolClient): Promise<void>;
}

/** The one advisory lock every schema change of every process takes (CREATE IF NOT EXISTS races otherwise). */
export const SCHEMA_LOCK_ID = 727_001;

const MIGRATIONS_DDL = `CREATE TABLE IF NOT EXISTS schema_migrations (
  id text PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * Applies `migrations` in order in ONE transaction under ONE transaction-scoped advisory lock:
 * instances starting together take turns, a crash half-way leaves nothing applied, and the
 * lock is released by the server if the connection dies. Returns the ids it ran.
 */
export async function migrate(pool: Pool, migrations: readonly Migration[]): Promise<string[]> {
  const ids = migrations.map((m) => m.id);
  if (new Set(ids).size !== ids.length) throw new Error(`duplicate migration ids in ${ids.join(', ')}`);
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_ID]);
    await client.query(MIGRATIONS_DDL);
    const { rows } = await client.query<{ id: string }>('SELECT id FROM schema_migrations WHERE id = ANY($1)', [ids]);
    const done = new Set(rows.map((r) => r.id));
    const ran: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.id) && !migration.repeatable) continue;
      await migration.up(client);
      if (!migration.repeatable) await client.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
      ran.push(migration.id);
    }
    return ran;
  });
}
