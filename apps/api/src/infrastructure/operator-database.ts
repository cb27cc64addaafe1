import { existsSync } from 'node:fs';
import path from 'node:path';
import { assertPostgresReachable, startEmbeddedPostgres, withoutPassword } from '@pix/event-store';
import { StartupError } from '@pix/observability';
import type { AdminConfig } from '../config/config';
import { runningLocalDatabaseUrl } from './database';

export interface OperatorDatabase {
  /** PostgreSQL's URL; undefined when the events are in EventStoreDB and no PostgreSQL is needed. */
  databaseUrl?: string;
  /** Stops the embedded server this command started (none when the local server runs). */
  stop?: () => Promise<void>;
}

/**
 * The PostgreSQL an operator command works on, said through `say` (the wrong store is otherwise
 * invisible): DATABASE_URL; else, in local mode, the running server's embedded one
 * (DATA_DIR/runtime.json), or started here. `needed: 'always'`: read models live in PostgreSQL
 * even beside EventStoreDB. `existing`: a DATA_DIR without a cluster is refused (a StartupError)
 * instead of getting a new, empty one: a rebuild there would report success on nothing.
 */
export async function openOperatorDatabase(
  config: AdminConfig,
  say: (line: string) => void,
  options: { needed: 'always' | 'without-eventstoredb'; existing?: string },
): Promise<OperatorDatabase> {
  if (config.eventStoreConnectionString) say(`events in EventStoreDB at ${withoutPassword(config.eventStoreConnectionString)}`);
  if (config.databaseUrl) {
    say(`using PostgreSQL at DATABASE_URL ${withoutPassword(config.databaseUrl)}`);
    // A database that does not answer is a setting to fix (exit 2, the API's line), not a failed run.
    await assertPostgresReachable(config.databaseUrl);
    return { databaseUrl: config.databaseUrl };
  }
  if (config.eventStoreConnectionString && options.needed === 'without-eventstoredb') return {};
  const pgDir = path.resolve(config.dataDir, 'pg');
  const running = runningLocalDatabaseUrl(config.dataDir);
  if (running) {
    say(`using the running local server's embedded PostgreSQL in ${pgDir} (DATA_DIR)`);
    return { databaseUrl: running };
  }
  if (options.existing && !existsSync(path.join(pgDir, 'PG_VERSION')))
    throw new StartupError(`no local database in ${pgDir}: nothing to ${options.existing}. Point DATA_DIR at the folder the server keeps its data in (npm start: ./data), or set DATABASE_URL`);
  say(`starting the embedded PostgreSQL in ${pgDir} (DATA_DIR; local mode)`);
  const pg = await startEmbeddedPostgres({ dataDir: pgDir });
  return { databaseUrl: pg.url, stop: pg.stop };
}
