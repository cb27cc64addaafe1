import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { passwordFile } from './embedded-auth';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';

jest.setTimeout(120_000);

/** What an account on this machine without the password gets (any guess; node-postgres sends none without one): in, or refused. */
async function withoutPassword(port: number): Promise<string> {
  const client = new Client({ connectionString: `postgres://postgres:guess@127.0.0.1:${port}/postgres` });
  try {
    await client.connect();
    return 'let in';
  } catch (error) {
    return (error as { code?: string }).code === '28P01' ? 'refused' : `failed: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

// Trust on loopback let any local account in as superuser, and a superuser runs programs as the
// server's account (COPY … FROM PROGRAM): on a shared machine, anyone could act as the developer.
describe('embedded PostgreSQL: by password only', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'pix-embedded-auth-'));
  chmodSync(root, 0o755); // as root, the embedded server runs as `postgres`
  const dataDir = path.join(root, 'pg');
  let server: EmbeddedPostgres | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a new cluster asks for the password kept beside its folder (0600), which its URL carries', async () => {
    server = await startEmbeddedPostgres({ dataDir });
    const password = readFileSync(passwordFile(dataDir), 'utf8').trim();
    expect(statSync(passwordFile(dataDir)).mode & 0o777).toBe(0o600);
    expect(server.url).toBe(`postgres://postgres:${password}@127.0.0.1:${server.port}/postgres`);
    expect(await withoutPassword(server.port)).toBe('refused');
    await query(server.url, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)');
  });

  it('a cluster that trusted everyone (made before passwords) is closed at its next start, its data kept', async () => {
    // As initdb --auth=trust wrote it; written in place, so the file keeps its owner.
    writeFileSync(path.join(dataDir, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n');
    const notices: string[] = [];
    server = await startEmbeddedPostgres({ dataDir, notice: (m) => notices.push(m) });
    expect(notices).toEqual([`the embedded PostgreSQL in ${dataDir} let in anyone on this machine; it asks for the password in ${passwordFile(dataDir)} from now on`]);
    expect(await withoutPassword(server.port)).toBe('refused');
    expect(await query(server.url, 'SELECT n FROM kept')).toEqual([{ n: 42 }]);
    await server.stop();
    server = await startEmbeddedPostgres({ dataDir, notice: (m) => notices.push(m) });
    expect(notices).toHaveLength(1);
  });

  it('a password file that is not the cluster\'s: a start-up error naming the file, at once', async () => {
    const file = passwordFile(dataDir);
    const kept = readFileSync(file, 'utf8');
    writeFileSync(file, 'not-the-password\n');
    try {
      const started = Date.now();
      await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(`refused the password in ${file}`);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      writeFileSync(file, kept);
    }
    server = await startEmbeddedPostgres({ dataDir }); // the folder is usable again with its own file
  });
});
