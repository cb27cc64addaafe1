import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '@pix/event-store';
import { StartupError } from '@pix/observability';
import type { AppConfig } from '../config/config';

export interface RunningDatabase {
  url: string;
  stop(): Promise<void>;
}

/** The file through which operator commands (replay) find the local embedded server. */
export const runtimeFile = (dataDir: string) => path.resolve(dataDir, 'runtime.json');

/**
 * Production: the configured PostgreSQL. Local mode: an embedded PostgreSQL in DATA_DIR, kept
 * across restarts; its URL is written to DATA_DIR/runtime.json for operator commands.
 */
export async function startDatabase(config: AppConfig, log: (m: string) => void): Promise<RunningDatabase> {
  if (config.databaseUrl) {
    await assertReachable(config.databaseUrl);
    return { url: config.databaseUrl, stop: async () => undefined };
  }
  const dataDir = path.resolve(config.dataDir);
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory()) throw new StartupError(`DATA_DIR ${dataDir} is not a folder: point DATA_DIR at a folder, or at a path that does not exist yet`);
  // Closed to others: as root the database user may be let into DATA_DIR, and only into its own folder.
  try {
    chmodSync(runtimeFile(dataDir), 0o600);
  } catch {
    /* none yet, or not ours (then we are not root, and nobody is let in) */
  }
  log(`starting embedded PostgreSQL in ${path.join(dataDir, 'pg')}`);
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg') });
  writeFileSync(runtimeFile(dataDir), JSON.stringify({ databaseUrl: pg.url, pid: process.pid }, null, 2), { mode: 0o600 });
  return pg;
}

/** The embedded server's URL if the local API that wrote runtime.json is still running. */
export function runningLocalDatabaseUrl(dataDir: string): string | undefined {
  const file = runtimeFile(dataDir);
  if (!existsSync(file)) return undefined;
  const { databaseUrl, pid } = JSON.parse(readFileSync(file, 'utf8')) as { databaseUrl: string; pid: number };
  try {
    process.kill(pid, 0);
    return databaseUrl;
  } catch {
    return undefined;
  }
}

/** Before anything else uses it: a database that cannot be reached is the environment's fault, said in one line. */
async function assertReachable(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    const { message, errors } = error as { message?: string; errors?: Error[] };
    const reason = message || errors?.map((e) => e.message).join(', ') || String(error);
    throw new StartupError(`cannot reach the database at DATABASE_URL ${withoutPassword(url)} (${reason}). Fix: start it, or correct DATABASE_URL`, { cause: error });
  } finally {
    await client.end().catch(() => undefined);
  }
}

function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}
