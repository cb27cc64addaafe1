import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { StartupError } from '@pix/observability';

/**
 * The server process's life beside ours. In its own process group (`detached`), a terminal's
 * Ctrl-C reaches only our process, which drains its requests and then stops the server; so the
 * server is also told to stop when our process exits any other way it can still act on (a second
 * Ctrl-C, a crash). After `kill -9` of our process it keeps running: the next start stops it.
 */
export class ServerProcess {
  private stopping = false;
  private readonly lost: ((how: string) => void)[] = [];
  private readonly stopOnExit = () => this.signalStop();

  constructor(private readonly child: ChildProcess) {
    process.once('exit', this.stopOnExit);
    child.once('exit', (code, signal) => {
      process.off('exit', this.stopOnExit);
      if (this.stopping) return;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      for (const listener of this.lost) listener(how);
    });
  }

  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** Told once if the server exits without having been asked to (killed, crashed): `how` is "code N" or "signal S". */
  onUnexpectedExit(listener: (how: string) => void): void {
    this.lost.push(listener);
  }

  /** PostgreSQL's "fast shutdown": rolls back open transactions, checkpoints, exits. */
  stop(): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.signalStop();
    });
  }

  kill(): void {
    this.stopping = true;
    this.child.kill('SIGKILL');
  }

  private signalStop(): void {
    this.stopping = true;
    if (!this.exited) this.child.kill('SIGINT');
  }
}

/** A server left running by a process killed with -9 (its parent is gone): shut it down. */
export function stopOrphanedServer(dataDir: string): void {
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
