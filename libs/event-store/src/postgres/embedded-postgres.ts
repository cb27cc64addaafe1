import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { StartupError } from '@pix/observability';
import { embeddedPostgresBinDir } from './embedded-binaries';
import { prepareDataDir, type DatabaseUser } from './embedded-data-dir';
import { clusterPassword, passwordFile, requirePassword, trustsEveryone, withPasswordFile } from './embedded-auth';
import { ServerProcess, stopOrphanedServer } from './embedded-process';

export interface EmbeddedPostgresOptions {
  /** Where the cluster lives; created on first start and kept across restarts. */
  dataDir: string;
  /** TCP port on 127.0.0.1; a free one is chosen when omitted. */
  port?: number;
  log?: (line: string) => void;
  /** Told what an operator should know (a cluster that trusted everyone, closed now). */
  notice?: (message: string) => void;
  /**
   * Run the server in its own process group, so a terminal's Ctrl-C (SIGINT to the whole
   * foreground group) does not stop it under requests still in flight: for a caller that handles
   * SIGINT itself and calls stop() after draining. Without it, Ctrl-C stops both at once.
   */
  ownProcessGroup?: boolean;
}

export interface EmbeddedPostgres {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Told once if the server exits without stop() (killed, crashed): `how` is "code N" or "signal S", with its last PANIC lines if any. */
  onUnexpectedExit(listener: (how: string) => void): void;
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
    { ...asOwner, stdio: ['ignore', 'pipe', 'pipe'], detached: options.ownProcessGroup ?? false },
  );
  const server = new ServerProcess(child);
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
    await waitUntilReady(trusted, server, output, dataDir);
    await requirePassword(trusted, dataDir, password);
    options.notice?.(`the embedded PostgreSQL in ${dataDir} let in anyone on this machine; it asks for the password in ${passwordFile(dataDir)} from now on`);
  }
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  await waitUntilReady(url, server, output, dataDir);
  return {
    url,
    port,
    stop: () => server.stop(),
    onUnexpectedExit: (listener) => server.onUnexpectedExit((how) => listener(`${how}${complaints(output)}`)),
  };
}

async function waitUntilReady(url: string, server: ServerProcess, output: string[], dataDir: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    if (server.exited) throw new StartupError(`embedded PostgreSQL stopped during start-up: ${reasons(output)}`);
    const client = new Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      if ((error as { code?: string }).code === '28P01') {
        await server.stop();
        throw new StartupError(`the embedded PostgreSQL in ${dataDir} refused the password in ${passwordFile(dataDir)}: put back the file that came with this folder, or start from an empty DATA_DIR`);
      }
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  server.kill();
  throw new StartupError(`embedded PostgreSQL did not accept connections within 30 s: ${reasons(output)}`);
}

/** The server's own complaint (its FATAL lines), on one line. */
function reasons(output: string[]): string {
  const lines = output.join('').split('\n').map((l) => l.trim()).filter(Boolean);
  const fatal = lines.filter((l) => /FATAL|PANIC|ERROR/.test(l));
  return (fatal.length > 0 ? fatal : lines.slice(-3)).join('; ') || 'no output';
}

/** Why a running server ended, when it said so (a full disk's PANIC; FATAL lines are any session's, not the server's): ", saying …", or nothing. */
function complaints(output: string[]): string {
  const panics = output.join('').split('\n').map((l) => l.trim()).filter((l) => /PANIC/.test(l));
  return panics.length > 0 ? `, saying ${panics.slice(-2).join('; ')}` : '';
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
