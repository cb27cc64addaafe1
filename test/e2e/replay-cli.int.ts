import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@pix/testing';
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
    return { status: r.status, stderr: r.stderr, stdout: r.stdout };
  };

  it.each([[['constructor']], [['__proto__']], [['toString']], [['cobv', '--bogus']], [[]]])('refuses %j with the usage and exit 2, before it opens anything', (args) => {
    const r = replay(args);
    expect([r.status, r.stderr]).toEqual([2, expect.stringMatching(/^usage: npm run replay -- <projection>\nprojections: cobv, /)]);
  });

  // An operator found it asking for LOCATION_HOST, KAFKA_BROKERS, token and signing keys, and
  // exiting 1 (README audit): a rebuild needs only where the data is.
  it('in production it needs DATABASE_URL and nothing else of the API, and says which database it uses', async () => {
    const db = await createTestDatabase('replay_cli');
    try {
      const r = replay(['cobv'], { MODE: 'production', DATABASE_URL: db.url });
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(r.stdout.split('\n')[0]).toBe(`[replay] using PostgreSQL at DATABASE_URL ${db.url.replace(/:[^:@/]*@/, '@')}`);
      expect(r.stdout).toMatch(/\[replay cobv\] done: 0 events in [\d.]+ s; rm_cobv switched atomically/);
      const missing = replay(['cobv'], { MODE: 'production' });
      expect([missing.status, missing.stderr]).toEqual([2, expect.stringContaining('DATABASE_URL is required in production mode')]);
    } finally {
      await db.drop();
    }
  });

  // It started a new, empty database there and reported "done: 0 events" (README audit).
  it('refuses a DATA_DIR that holds no local database (exit 2, one line naming it), and creates nothing there', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'pix-replay-empty-'));
    try {
      const r = replay(['cobv'], { DATA_DIR: empty });
      expect([r.status, r.stderr.trim()]).toEqual([2, expect.stringMatching(new RegExp(`^no local database in ${path.join(empty, 'pg')}: nothing to replay\\. Point DATA_DIR at`))]);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(existsSync(path.join(empty, 'pg'))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  // A database that does not answer is a setting it cannot use (README: exit 2), said as the API's start says it.
  it('says in one line why it cannot start, without a stack, and exits 2 (an unreachable database)', () => {
    const r = replay(['cobv'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing' });
    expect([r.status, r.stderr.trim()]).toEqual([2, 'cannot reach the database at DATABASE_URL postgres://postgres@127.0.0.1:1/nothing (connect ECONNREFUSED 127.0.0.1:1). Fix: start it, or correct DATABASE_URL']);
  });
});
