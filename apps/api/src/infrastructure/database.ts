import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assertPostgresReachable, startEmbeddedPostgres } from '@pix/event-store';
import { StartupError } from '@pix/observability';
import type { AppConfig } from '../config/config';

export interface RunningDatabase {
  url: string;
  stop(): Promise<void>;
  /** Told once, with a line for the operator, if the embedded server exits on its own (never for DATABASE_URL). */
  onLost(listener: (message: string) => void): void;
}

/** The file through which operator commands (replay) find the local embedded server. */
export const runtimeFile = (dataDir: string) => path.resolve(dataDir, 'runtime.json');

/**
 * Production: the configured PostgreSQL. Local mode: an embedded PostgreSQL in DATA_DIR, kept
 * across restarts; its URL is written to DATA_DIR/runtime.json for operator commands.
 */
export async function startDatabase(config: AppConfig, log: (m: string) => void): Promise<RunningDatabase> {
  if (config.databaseUrl) {
    await assertPostgresReachable(config.databaseUrl);
    return { url: config.databaseUrl, stop: async () => undefined, onLost: () => undefined };
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
  const pgDir = path.join(dataDir, 'pg');
  // Its own process group: Ctrl-C reaches only the API, which drains and then stops it (main.ts).
  const pg = await startEmbeddedPostgres({ dataDir: pgDir, notice: log, ownProcessGroup: true });
  writeFileSync(runtimeFile(dataDir), JSON.stringify({ databaseUrl: pg.url, pid: process.pid }, null, 2), { mode: 0o600 });
  return {
    url: pg.url,
    stop: pg.stop,
    onLost: (listener) => pg.onUnexpectedExit((how) => listener(`the embedded PostgreSQL (DATA_DIR ${pgDir}) exited with ${how}; the API stops now: run npm start again`)),
  };
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
