import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startEmbeddedPostgres } from '@pix/event-store';
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
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => undefined };
  mkdirSync(config.dataDir, { recursive: true });
  log(`starting embedded PostgreSQL in ${path.resolve(config.dataDir, 'pg')}`);
  const pg = await startEmbeddedPostgres({ dataDir: path.join(config.dataDir, 'pg') });
  writeFileSync(runtimeFile(config.dataDir), JSON.stringify({ databaseUrl: pg.url, pid: process.pid }, null, 2));
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
