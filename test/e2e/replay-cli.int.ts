import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt } from '../support/api-process';

// `npm run replay`, the compiled command as an operator runs it: what it refuses, and how it fails.
jest.setTimeout(60_000);

const root = path.resolve(__dirname, '../..');

describe('npm run replay (the operator command)', () => {
  let dataDir: string;
  beforeAll(() => {
    ensureBuilt();
    dataDir = mkdtempSync(path.join(tmpdir(), 'pix-replay-cli-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const replay = (args: string[], env: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, [path.join(root, 'tools/launch.js'), 'apps/api/src/replay.js', ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...env },
      timeout: 30_000,
    });
    return { status: r.status, stderr: r.stderr };
  };

  it.each([[['constructor']], [['__proto__']], [['toString']], [['cobv', '--bogus']], [[]]])('refuses %j with the usage and exit 2, before it opens anything', (args) => {
    const r = replay(args);
    expect([r.status, r.stderr]).toEqual([2, expect.stringMatching(/^usage: npm run replay -- <projection>\nprojections: cobv, /)]);
  });

  it('says in one line why it failed, without a stack, and exits 1 (an unreachable database)', () => {
    const r = replay(['cobv'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing' });
    expect([r.status, r.stderr.trim()]).toEqual([1, '[replay] failed: connect ECONNREFUSED 127.0.0.1:1 (ECONNREFUSED)']);
  });
});
