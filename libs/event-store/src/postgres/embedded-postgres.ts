import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { StartupError } from '@pix/observability';
import { embeddedPostgresBinDir } from './embedded-binaries';
import { prepareDataDir, type DatabaseUser } from './embedded-data-dir';
import { clusterPassword, passwordFile, requirePassword, trustsEveryone, withPasswordFile } from './embedded-auth';

export interface EmbeddedPostgresOptions {
  /** Where the cluster lives; created on first start and kept across restarts. */
  dataDir: string;
  /** TCP port on 127.0.0.1; a free one is chosen when omitted. */
  port?: number;
  log?: (line: string) => void;
  /** Told what an operator should know (a cluster that trusted everyone, closed now). */
  notice?: (message: string) => void;
}

export interface EmbeddedPostgres {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL server run from npm-shipped binaries, for the one-command local mode and for
 * tests of the same adapter. Listens on loopback only, and asks for the superuser's password, kept
 * beside the data folder (embedded-auth.ts); a cluster made before that is closed at its next
 * start. PostgreSQL refuses to run as root, so as root it runs as the `postgres` user.
 * Failures of the surroundings (a folder it cannot use, a server already there) are StartupErrors.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const bin = embeddedPostgresBinDir();
  const dataDir = path.resolve(options.dataDir);
  const owner = runAsUser();
  prepareDataDir(dataDir, owner);
  const asOwner = owner ? { uid: owner.uid, gid: owner.gid } : {};
  stopOrphanedServer(dataDir);
  const password = clusterPassword(dataDir);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    try {
      withPasswordFile(password, owner, (pwfile) =>
        execFileSync(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--locale=C', '--no-instructions'], { ...asOwner, stdio: 'pipe' }),
      );
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim() || (error as Error).message;
      throw new StartupError(`cannot create the database in ${dataDir}: ${stderr}`, { cause: error });
    }
  }
  const port = options.port ?? (await freePort());
  const child = spawn(
    path.join(bin, 'postgres'),
    ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200', '-c', 'lc_messages=C'],
    { ...asOwner, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output: string[] = [];
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    output.push(text);
    if (output.length > 50) output.shift();
    options.log?.(text.trimEnd());
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  if (trustsEveryone(dataDir)) {
    const trusted = `postgres://postgres@127.0.0.1:${port}/postgres`;
    await waitUntilReady(trusted, child, output, dataDir);
    await requirePassword(trusted, dataDir, password);
    options.notice?.(`the embedded PostgreSQL in ${dataDir} let in anyone on this machine; it asks for the password in ${passwordFile(dataDir)} from now on`);
  }
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  await waitUntilReady(url, child, output, dataDir);
  return { url, port, stop: () => stopChild(child) };
}

async function waitUntilReady(url: string, child: ChildProcess, output: string[], dataDir: string): Promise<void> {
  let exited = false;
  child.once('exit', () => (exited = true));
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    if (exited) throw new StartupError(`embedded PostgreSQL stopped during start-up: ${reasons(output)}`);
    const client = new Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      if ((error as { code?: string }).code === '28P01') {
        await stopChild(child);
        throw new StartupError(`the embedded PostgreSQL in ${dataDir} refused the password in ${passwordFile(dataDir)}: put back the file that came with this folder, or start from an empty DATA_DIR`);
      }
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  child.kill('SIGKILL');
  throw new StartupError(`embedded PostgreSQL did not accept connections within 30 s: ${reasons(output)}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT'); // "fast shutdown": rolls back open transactions, checkpoints, exits
  });
}

/** A server left running by a process killed with -9 (its parent is gone): shut it down. */
function stopOrphanedServer(dataDir: string): void {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!pid || !isAlive(pid)) return;
  const parent = parentPid(pid);
  if (parent !== undefined && parent !== 1 && isAlive(parent) && parent !== process.pid) {
    throw new StartupError(`The data folder ${dataDir} is in use by a running server (pid ${pid}, started by pid ${parent}). Stop it first or use another DATA_DIR.`);
  }
  process.kill(pid, 'SIGINT');
  for (const deadline = Date.now() + 30_000; isAlive(pid) && Date.now() < deadline; ) execFileSync('sleep', ['0.1']);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function parentPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** The server's own complaint (its FATAL lines), on one line. */
function reasons(output: string[]): string {
  const lines = output.join('').split('\n').map((l) => l.trim()).filter(Boolean);
  const fatal = lines.filter((l) => /FATAL|PANIC|ERROR/.test(l));
  return (fatal.length > 0 ? fatal : lines.slice(-3)).join('; ') || 'no output';
}

function runAsUser(): DatabaseUser | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { stdio: 'pipe' }).toString().trim());
  try {
    return { name: 'postgres', uid: id('-u'), gid: id('-g') };
  } catch {
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], { stdio: 'pipe' });
      return { name: 'postgres', uid: id('-u'), gid: id('-g') };
    } catch (error) {
      throw new StartupError(`running as root, the embedded PostgreSQL needs a postgres user and useradd failed (${(error as Error).message.split('\n')[0]}): create one, or start as another user`, { cause: error });
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
