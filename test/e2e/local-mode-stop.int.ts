import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt, fetchToken, freePort } from '../support/api-process';
import { newTxid, validCobV } from '../support/api-harness';

// Local mode as a developer runs it in a terminal: Ctrl-C signals the whole process group, and the
// embedded PostgreSQL must not hear it (the API drains, then stops it); a postmaster that dies
// under the API is said once, and the API exits non-zero instead of logging errors for ever.
jest.setTimeout(120_000);

const root = path.resolve(__dirname, '../..');
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm start`'s process in a group of its own, as a terminal makes one (setsid): `kill -INT -- -pid` is Ctrl-C. */
function runLocal(dataDir: string, port: number, env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [path.join(root, 'tools/launch.js'), 'apps/api/src/main.js'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function untilHealthy(run: Run, port: number): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await wait(200)) {
    if (run.child.exitCode !== null) throw new Error(`API exited with ${run.child.exitCode}:\n${run.output()}`);
    if (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)) return;
  }
  throw new Error(`API not healthy within 60 s:\n${run.output()}`);
}

/** A PUT whose body (a valid charge padded with whitespace) trickles in over ~2 s; `sent` resolves once its first bytes are out. */
function slowPut(url: string, token: string): { sent: Promise<void>; answer: Promise<number> } {
  const json = JSON.stringify(validCobV());
  const body = Buffer.from(`{${' '.repeat(40_000)}${json.slice(1)}`);
  let sent!: () => void;
  const first = new Promise<void>((resolve) => (sent = resolve));
  const answer = new Promise<number>((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    const chunk = 2_000;
    let offset = 0;
    const next = () => {
      req.write(body.subarray(offset, offset + chunk));
      offset += chunk;
      if (offset === chunk) sent();
      if (offset < body.length) setTimeout(next, 100);
      else req.end();
    };
    next();
  });
  return { sent: first, answer };
}

const postmasterPid = (dataDir: string) => Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const problems = (output: string) => output.split('\n').filter((l) => /\b(ERROR|WARN)\b/.test(l) && !/webhook URLs may point at localhost/.test(l));

describe('local mode stops as the developer stops it', () => {
  const made: string[] = [];
  const runs: Run[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-local-stop-'));
    chmodSync(dir, 0o755); // as root the embedded server runs as `postgres`
    made.push(dir);
    return path.join(dir, 'data');
  };
  const start = async (dir: string, env: Record<string, string> = {}) => {
    const port = await freePort();
    const run = runLocal(dir, port, env);
    runs.push(run);
    await untilHealthy(run, port);
    return { run, port, origin: `http://127.0.0.1:${port}` };
  };
  beforeAll(() => ensureBuilt());
  afterAll(async () => {
    for (const run of runs) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    for (const dir of made) {
      const pidFile = path.join(dir, 'data', 'pg', 'postmaster.pid');
      if (existsSync(pidFile) && alive(postmasterPid(path.join(dir, 'data')))) process.kill(postmasterPid(path.join(dir, 'data')), 'SIGINT');
    }
    await wait(500);
    made.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  it('Ctrl-C (SIGINT to the process group) during a slow PUT: the PUT gets its 201, no warning or error, exit 0, PostgreSQL stopped', async () => {
    const dir = dataDir();
    const { run, origin } = await start(dir);
    const token = await fetchToken(origin, 'sandbox', 'sandbox-secret');
    const put = slowPut(`${origin}/v2/cobv/${newTxid()}`, token);
    await put.sent;
    await wait(300);
    process.kill(-run.child.pid!, 'SIGINT');
    expect(await put.answer).toBe(201);
    expect(await run.exited).toBe(0);
    expect(problems(run.output())).toEqual([]);
    expect(run.output()).toContain('stopped cleanly');
    expect(existsSync(path.join(dir, 'pg', 'postmaster.pid'))).toBe(false); // removed by PostgreSQL's own shutdown
  });

  it('a drain that runs out: exit 1 with its warning, and no LISTEN warning when the API then stops its PostgreSQL', async () => {
    const dir = dataDir();
    const { run, origin } = await start(dir, { SHUTDOWN_DRAIN_MS: '500' });
    const put = slowPut(`${origin}/v2/cobv/${newTxid()}`, await fetchToken(origin, 'sandbox', 'sandbox-secret'));
    const answered = put.answer.catch(() => 'cut off'); // the drain gives up on it
    await put.sent;
    await wait(300);
    process.kill(-run.child.pid!, 'SIGINT');
    expect(await run.exited).toBe(1);
    await answered;
    expect(run.output()).toMatch(/WARN.*drain time of 500 ms ran out/);
    expect(run.output()).not.toMatch(/LISTEN connection lost/);
  });

  it('Ctrl-C twice (exit at once): the API exits 1 and its PostgreSQL still stops, not left running', async () => {
    const dir = dataDir();
    const { run, origin } = await start(dir);
    const pid = postmasterPid(dir);
    const put = slowPut(`${origin}/v2/cobv/${newTxid()}`, await fetchToken(origin, 'sandbox', 'sandbox-secret'));
    const answered = put.answer.catch(() => 'cut off'); // what a second Ctrl-C asks for
    await put.sent;
    await wait(300);
    process.kill(-run.child.pid!, 'SIGINT');
    await wait(300); // the drain waits for the PUT's body
    process.kill(-run.child.pid!, 'SIGINT');
    expect(await run.exited).toBe(1);
    await answered;
    for (const deadline = Date.now() + 15_000; alive(pid) && Date.now() < deadline; ) await wait(100);
    expect(alive(pid)).toBe(false);
  });

  it('a postmaster killed under the API: one error line naming DATA_DIR and how it ended, exit 1; the next start works', async () => {
    const dir = dataDir();
    const { run } = await start(dir);
    process.kill(postmasterPid(dir), 'SIGKILL');
    const timer = setTimeout(() => run.child.kill('SIGKILL'), 30_000);
    const code = await run.exited;
    clearTimeout(timer);
    const said = run.output().split('\n').filter((l) => /embedded PostgreSQL .* exited/.test(l));
    expect({ code, said }).toEqual({ code: 1, said: [expect.stringMatching(/ERROR.*embedded PostgreSQL \(DATA_DIR .*\) exited with signal SIGKILL.*npm start/)] });
    expect(said[0]).toContain(path.join(dir, 'pg'));

    const again = await start(dir);
    process.kill(again.run.child.pid!, 'SIGTERM');
    expect(await again.run.exited).toBe(0);
  });

  it('an API killed with -9 leaves its PostgreSQL running; the next start stops that one and serves', async () => {
    const dir = dataDir();
    const { run } = await start(dir);
    const orphan = postmasterPid(dir);
    run.child.kill('SIGKILL');
    await run.exited;
    expect(alive(orphan)).toBe(true);

    const again = await start(dir);
    expect(postmasterPid(dir)).not.toBe(orphan);
    process.kill(-again.run.child.pid!, 'SIGINT');
    expect(await again.run.exited).toBe(0);
    expect(alive(orphan)).toBe(false);
  });
});
