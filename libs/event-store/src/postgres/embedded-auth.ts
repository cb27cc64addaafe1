import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import type { DatabaseUser } from './embedded-data-dir';

/**
 * The embedded cluster's superuser password (ADR 2). Trust on loopback let any local account in
 * as superuser, and a superuser runs programs as the account the server runs as (`COPY … FROM
 * PROGRAM`): on a shared machine, anyone could act as the developer (README audit, 2026-11-27).
 * The password lives beside the cluster's folder, closed to everyone else (0600), made on first use.
 */
export function clusterPassword(dataDir: string): string {
  const file = passwordFile(dataDir);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('base64url'); // URL-safe: it goes into the connection URL as it is
  writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
  return password;
}

export const passwordFile = (dataDir: string) => `${dataDir}.password`;

/** initdb's `--pwfile`, readable by the account initdb runs as, removed once `use` returns. */
export function withPasswordFile<T>(password: string, owner: DatabaseUser | undefined, use: (file: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-pg-'));
  const file = path.join(dir, 'pwfile');
  try {
    writeFileSync(file, `${password}\n`, { mode: 0o600 });
    if (owner) {
      chownSync(dir, owner.uid, owner.gid);
      chownSync(file, owner.uid, owner.gid);
    }
    return use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const HBA_FILE = 'pg_hba.conf';
/** Loopback TCP only (the server has no Unix socket), by password. */
const HBA = `# Written by the embedded PostgreSQL of pix (ADR 2): loopback only, by password.
host all all 127.0.0.1/32 scram-sha-256
`;

/** A cluster made before passwords (initdb --auth=trust): anyone on this machine gets in. */
export function trustsEveryone(dataDir: string): boolean {
  const hba = readFileSync(path.join(dataDir, HBA_FILE), 'utf8');
  return hba.split('\n').some((line) => /^\s*(host|local)\b.*\btrust\s*$/.test(line));
}

/**
 * Closes a trusting cluster (running, reached at `trustedUrl`): the superuser gets `password`,
 * pg_hba.conf asks for it, and the server reloads. Writing the file in place keeps its owner.
 */
export async function requirePassword(trustedUrl: string, dataDir: string, password: string): Promise<void> {
  const client = new Client({ connectionString: trustedUrl });
  await client.connect();
  try {
    await client.query(`ALTER ROLE postgres PASSWORD '${password}'`); // base64url: no quote to escape
    writeFileSync(path.join(dataDir, HBA_FILE), HBA);
    await client.query('SELECT pg_reload_conf()');
  } finally {
    await client.end();
  }
}
