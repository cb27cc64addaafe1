import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '@pix/event-store';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { ensureBuilt, freePort, TEST_TOKEN_KEY } from '../support/api-process';
import { testPayloadSigningEnv } from '../support/payload-keys';

// The operator audit's start-up findings, run as an operator runs the built commands (only PATH
// from this process's environment): production refuses what it would otherwise guess, by name.
jest.setTimeout(90_000);

const root = path.resolve(__dirname, '../..');
const STACK = /^\s+at .+[(:]/m;

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a compiled entry point to its end (killed after 60 s). */
function run(entry: string, env: Record<string, string>, args: string[] = []): Promise<Ended> {
  const child = spawn(process.execPath, [path.join(root, 'tools/launch.js'), entry, ...args], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => child.once('exit', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr }))));
}

describe('production start-up refuses what it would otherwise guess', () => {
  let db: TestDatabase;
  let dataDir: string;
  /** Everything production requires, on the test database; a test removes or changes one setting. */
  let production: Record<string, string>;
  beforeAll(async () => {
    ensureBuilt();
    db = await createTestDatabase('startup_prod');
    dataDir = mkdtempSync(path.join(tmpdir(), 'pix-startup-prod-'));
    chmodSync(dataDir, 0o755); // as root the embedded server runs as `postgres`, which must reach its folder
    production = { MODE: 'production', DATABASE_URL: db.url, AUTH_TOKEN_KEY: TEST_TOKEN_KEY, LOCATION_HOST: 'pix.example.com', KAFKA_BROKERS: 'none', HOST: '127.0.0.1', DATA_DIR: path.join(dataDir, 'data'), ...testPayloadSigningEnv() };
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const without = (name: string) => (env: Record<string, string>) => {
    const copy = { ...env };
    delete copy[name];
    return copy;
  };

  it.each([
    ['LOCATION_HOST unset', without('LOCATION_HOST'), 'LOCATION_HOST is required in production mode'],
    ['KAFKA_BROKERS unset', without('KAFKA_BROKERS'), 'KAFKA_BROKERS is required in production mode'],
    ['KAFKA_BROKERS blank', (env: Record<string, string>) => ({ ...env, KAFKA_BROKERS: ' ' }), 'KAFKA_BROKERS is required in production mode'],
  ])('the API with %s: exit 2, the setting named', async (_, change, message) => {
    const ended = await run('apps/api/src/main.js', { ...change(production), PORT: String(await freePort()) });
    expect({ code: ended.code, stderr: ended.stderr }).toEqual({ code: 2, stderr: expect.stringContaining(message) });
    expect(ended.stderr).not.toMatch(STACK);
  });

  it('the API on a PORT already taken: exit 2, one line naming PORT, never "successfully started"', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const ended = await run('apps/api/src/main.js', { ...production, PORT: String(port), LOG_LEVEL: 'info' });
      expect({ code: ended.code, stderr: ended.stderr.trim() }).toEqual({ code: 2, stderr: expect.stringMatching(new RegExp(`^start-up failed: PORT ${port} is already in use on 127\\.0\\.0\\.1 \\(EADDRINUSE`)) });
      expect(ended.stdout + ended.stderr).not.toContain('successfully started');
    } finally {
      taken.close();
    }
  });

  it('the notifier with an unreachable database: exit 2, one line naming DATABASE_URL, no password', async () => {
    const ended = await run('apps/notifier/src/main.js', { DATABASE_URL: `postgres://postgres:s3cret@127.0.0.1:${await freePort()}/pix`, KAFKA_BROKERS: '127.0.0.1:9', NOTIFIER_PORT: String(await freePort()), HOST: '127.0.0.1' });
    const lines = ended.stderr.split('\n').filter((l) => l.trim() !== '');
    expect({ code: ended.code, lines }).toEqual({ code: 2, lines: [expect.stringContaining('cannot reach the database at DATABASE_URL postgres://postgres:***@127.0.0.1')] });
  });

  it('npm run admin with MODE=production and no DATABASE_URL: exit 2, DATABASE_URL named, no embedded database started', async () => {
    const ended = await run('apps/api/src/admin.js', { MODE: 'production', DATA_DIR: path.join(dataDir, 'admin-data') }, ['client', 'create', '--receiver', 'loja1', '--id', 'oops-prod']);
    expect({ code: ended.code, stderr: ended.stderr }).toEqual({ code: 2, stderr: expect.stringContaining('DATABASE_URL is required in production mode') });
    expect(ended.stdout).not.toContain('client created');
    expect(existsSync(path.join(dataDir, 'admin-data'))).toBe(false);
  });

  it('npm run admin says on stderr which store it uses: the database URL with its password masked', async () => {
    const url = new URL(db.url);
    url.password = 'hunter2'; // trust authentication here: any password connects
    const ended = await run('apps/api/src/admin.js', { MODE: 'production', DATABASE_URL: url.toString() }, ['receiver', 'list']);
    url.password = '***';
    expect({ code: ended.code, stderr: ended.stderr }).toEqual({ code: 0, stderr: `admin: using PostgreSQL at DATABASE_URL ${url.toString()}\n` });
  });

  // It started a new, empty database there and acted on it (exit 0): a receiver created so was
  // never read by the server (operator audit). `npm run replay` refused the same already.
  it('npm run admin in local mode refuses a DATA_DIR that holds no database: exit 2, one line naming DATA_DIR and the folder, nothing created', async () => {
    const folder = path.join(dataDir, 'no-data-here');
    for (const args of [['receiver', 'list'], ['receiver', 'create', '--id', 'loja1', '--name', 'Loja', '--cnpj', '11222333000181', '--street', 'Rua A 1', '--city', 'Recife', '--uf', 'PE', '--cep', '50000000']]) {
      const ended = await run('apps/api/src/admin.js', { DATA_DIR: folder }, args);
      expect({ code: ended.code, stdout: ended.stdout, stderr: ended.stderr }).toEqual({
        code: 2,
        stdout: '',
        stderr: `no local database in ${path.join(folder, 'pg')}: nothing to administer. Point DATA_DIR at the folder the server keeps its data in (npm start: ./data), or set DATABASE_URL\n`,
      });
      expect(existsSync(path.join(folder, 'pg'))).toBe(false);
    }
  });

  it('npm run admin in local mode works on the database a stopped server left in DATA_DIR, and says which folder', async () => {
    const folder = path.join(dataDir, 'local-data');
    mkdirSync(folder, { mode: 0o755 });
    await (await startEmbeddedPostgres({ dataDir: path.join(folder, 'pg') })).stop(); // what a stopped server leaves
    const ended = await run('apps/api/src/admin.js', { DATA_DIR: folder }, ['receiver', 'list']);
    expect({ code: ended.code, stderr: ended.stderr }).toEqual({ code: 0, stderr: expect.stringContaining(`starting the embedded PostgreSQL in ${path.join(folder, 'pg')}`) });
  });
});
