import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt, freePort } from '../support/api-process';

jest.setTimeout(90_000);

const root = path.resolve(__dirname, '../..');
const isRoot = process.getuid?.() === 0;
/** A line of a stack trace, as Node prints them. */
const STACK = /^\s+at .+[(:]/m;

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** The compiled API, as `npm start` runs it (node tools/launch.js …), with nothing of this process's environment but PATH. */
function runApi(env: Record<string, string>): Run {
  const child = spawn(process.execPath, [path.join(root, 'tools/launch.js'), 'apps/api/src/main.js'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function untilHealthy(run: Run, port: number): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if (run.child.exitCode !== null) throw new Error(`API exited with ${run.child.exitCode}:\n${run.stdout()}\n${run.stderr()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  run.child.kill('SIGKILL');
  throw new Error(`API not healthy within 60 s:\n${run.stdout()}\n${run.stderr()}`);
}

/** Exit status 2 and exactly one line on stderr, no stack. */
async function expectOneLineFailure(run: Run): Promise<string> {
  const timer = setTimeout(() => run.child.kill('SIGKILL'), 60_000);
  const code = await run.exited;
  clearTimeout(timer);
  const lines = run.stderr().split('\n').filter((l) => l.trim() !== '');
  expect({ code, stderr: run.stderr() }).toEqual({ code: 2, stderr: expect.not.stringMatching(STACK) });
  expect(lines).toHaveLength(1);
  expect(run.stdout()).not.toMatch(STACK);
  return lines[0];
}

describe('local mode starts in any data folder it can use, and says in one line when it cannot', () => {
  const made: string[] = [];
  // As `mktemp -d` makes them: owned by this user, mode 0700.
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-datadir-'));
    chmodSync(dir, 0o700);
    made.push(dir);
    return dir;
  };
  beforeAll(() => ensureBuilt());
  afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it.each([
    ['a new folder inside a fresh mktemp -d folder', (t: string) => path.join(t, 'data')],
    ['a fresh mktemp -d folder itself', (t: string) => t],
  ])('DATA_DIR = %s: starts, answers /health, and keeps the folder closed to others', async (_, dataDir) => {
    const dir = dataDir(tempDir());
    const port = await freePort();
    const run = runApi({ DATA_DIR: dir, PORT: String(port) });
    try {
      await untilHealthy(run, port);
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
    expect(run.stderr()).not.toMatch(STACK);
    expect(statSync(path.join(dir, 'pg')).mode & 0o077).toBe(0);
    for (const secret of ['token-signing.key', 'runtime.json']) expect(statSync(path.join(dir, secret)).mode & 0o077).toBe(0);
  });

  it('DATA_DIR naming a regular file: exit 2, one line naming it', async () => {
    const file = path.join(tempDir(), 'not-a-folder');
    writeFileSync(file, 'x');
    const line = await expectOneLineFailure(runApi({ DATA_DIR: file, PORT: '0' }));
    expect(line).toContain(file);
    expect(line).toContain('not a folder');
  });

  it('DATA_DIR where no folder can be made (/proc): exit 2, one line naming it', async () => {
    const dir = `/proc/pix-${process.pid}/data`;
    const line = await expectOneLineFailure(runApi({ DATA_DIR: dir, PORT: '0' }));
    expect(line).toContain(dir);
  });

  (isRoot ? it : it.skip)('as root, inside a closed folder that holds other files: exit 2, one line with the fix, nothing changed', async () => {
    const closed = tempDir();
    writeFileSync(path.join(closed, 'notes.txt'), 'readable by anyone who may enter', { mode: 0o644 });
    const dir = path.join(closed, 'data');
    const line = await expectOneLineFailure(runApi({ DATA_DIR: dir, PORT: '0' }));
    expect(line).toContain(`chmod o+x ${closed}`);
    expect(statSync(closed).mode & 0o777).toBe(0o700);
    expect(existsSync(dir)).toBe(false);
  });

  it('a port already taken: exit 2 with one line, and the embedded PostgreSQL it started is stopped', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const dir = path.join(tempDir(), 'data');
    try {
      const run = runApi({ DATA_DIR: dir, PORT: String((taken.address() as AddressInfo).port) });
      const timer = setTimeout(() => run.child.kill('SIGKILL'), 60_000);
      const code = await run.exited;
      clearTimeout(timer);
      expect({ code, failure: run.stderr().split('\n').find((l) => l.startsWith('start-up failed')) }).toEqual({ code: 2, failure: expect.stringContaining('EADDRINUSE') });
      // PostgreSQL removes postmaster.pid when it shuts down: nothing is left running in DATA_DIR.
      expect(existsSync(path.join(dir, 'pg', 'postmaster.pid'))).toBe(false);
    } finally {
      // Only if the assertion above failed: stop what it left behind.
      const pidFile = path.join(dir, 'pg', 'postmaster.pid');
      if (existsSync(pidFile)) process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGTERM');
      taken.close();
    }
  });

  it('an unreachable DATABASE_URL: exit 2, one line without the password', async () => {
    const port = await freePort();
    const line = await expectOneLineFailure(runApi({ DATA_DIR: tempDir(), DATABASE_URL: `postgres://postgres:s3cret@127.0.0.1:${port}/postgres`, PORT: '0' }));
    expect(line).toContain(`127.0.0.1:${port}`);
    expect(line).not.toContain('s3cret');
  });
});
