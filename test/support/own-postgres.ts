import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@pix/event-store';
import { freePort } from './api-process';

/**
 * A PostgreSQL cluster of the test's own (the embedded binaries, its own port and data folder),
 * so a fault test can SIGKILL it without touching the machine's shared server on 5432.
 */
export interface OwnPostgres {
  url: string;
  port: number;
  /** SIGKILL the postmaster and every backend, as `kill -9` of the server would; resolves once all are gone. */
  kill(): Promise<void>;
  /** SIGSTOP the postmaster and every backend: a frozen server, whose kernel still accepts and acknowledges (a black hole). */
  freeze(): void;
  /** SIGCONT what freeze stopped. */
  thaw(): void;
  /** Starts the server again on the same port and data (crash recovery); resolves once it accepts connections. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pix-faults-pg-'));
  const port = await freePort();
  let server: EmbeddedPostgres = await startEmbeddedPostgres({ dataDir, port });
  const postmasterPid = () => Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url: server.url,
    port,
    async kill() {
      const pid = postmasterPid();
      const victims = [pid, ...childrenOf(pid)];
      for (const p of victims) signal(p, 'SIGKILL');
      for (const deadline = Date.now() + 10_000; victims.some(alive); ) {
        if (Date.now() > deadline) throw new Error(`PostgreSQL processes ${victims.filter(alive).join(', ')} survived SIGKILL`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    freeze() {
      const pid = postmasterPid();
      for (const p of [pid, ...childrenOf(pid)]) signal(p, 'SIGSTOP');
    },
    thaw() {
      const pid = postmasterPid();
      for (const p of [pid, ...childrenOf(pid)]) signal(p, 'SIGCONT');
    },
    async restart() {
      server = await startEmbeddedPostgres({ dataDir, port });
    },
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(`${dataDir}.password`, { force: true }); // beside the folder (embedded-auth.ts)
    },
  };
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return children;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* already gone */
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie still answers kill(0); it holds nothing PostgreSQL cares about.
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}
