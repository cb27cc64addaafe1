import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { Pool } from 'pg';
import { PostgresEventStore } from '@pix/event-store';
import type { DadosRecebedor } from '@pix/domain';
import { addKey, createClient, createReceiver } from '../../apps/api/src/access/admin/operations';
import { loadCliente } from '../../apps/api/src/access/access-streams';
import { testPayloadSigningEnv } from './payload-keys';

const root = path.resolve(__dirname, '../..');

/** The token-signing key production-mode test processes share, so a test can mint tokens too. */
export const TEST_TOKEN_KEY = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

/**
 * The receiver production-mode tests register (through the admin functions) before starting the
 * API. Its id is the one production processes had when they took their receiver from RECEIVER_*;
 * tests that read stream ids (`lotecobv-local/…`) rely on it.
 */
export const TEST_RECEIVER: DadosRecebedor & { id: string } = {
  id: 'local',
  nome: 'Empresa de Logística SA',
  cnpj: '56989000019563',
  logradouro: 'Rua 15 Numero 1200',
  cidade: 'São Paulo',
  uf: 'SP',
  cep: '70800100',
};
export const TEST_PIX_KEY = '5f84a4c5-c5cb-4599-9f13-7eb4d419dacc';
/** Its OAuth2 client, with every scope. */
export const TEST_CLIENT = { clientId: 'e2e-client', secret: 'e2e-client-secret-not-for-production' };

/**
 * Registers a receiver with its keys and a client in the database, as `npm run admin` would;
 * idempotent, so a test restarting a process on the same database may call it again.
 */
export async function provisionAccess(
  databaseUrl: string,
  options: { receiver?: DadosRecebedor & { id: string }; chaves?: string[]; client?: { clientId: string; secret: string; scopes?: string[] } } = {},
): Promise<void> {
  const { id, ...dados } = options.receiver ?? TEST_RECEIVER;
  const client: { clientId: string; secret: string; scopes?: string[] } = options.client ?? TEST_CLIENT;
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  pool.on('error', () => undefined);
  const store = await PostgresEventStore.create({ pool, listen: false });
  try {
    const ctx = { store };
    await createReceiver(ctx, id, dados);
    for (const chave of options.chaves ?? [TEST_PIX_KEY]) await addKey(ctx, id, chave);
    if (!(await loadCliente(store, client.clientId)).exists) await createClient(ctx, { recebedorId: id, clientId: client.clientId, secret: client.secret, scopes: client.scopes });
  } finally {
    await store.close();
    await pool.end();
  }
}

/** POST {origin}/oauth/token with HTTP Basic: the access token, or an error saying why not. */
export async function fetchToken(origin: string, clientId: string, secret: string, scope?: string): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', ...(scope !== undefined ? { scope } : {}) });
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64');
  const r = await fetch(`${origin}/oauth/token`, { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`POST /oauth/token for ${clientId} answered ${r.status}: ${text}`);
  return (JSON.parse(text) as { access_token: string }).access_token;
}

/** The compiled app, built once if `npm test` has not built it already. */
export function ensureBuilt(): void {
  if (existsSync(path.join(root, 'dist/apps/api/src/main.js'))) return;
  const r = spawnSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('build failed');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * What production requires and most tests do not exercise: the location host the API's own
 * port would have given, and no Kafka, said explicitly. A test with a broker sets KAFKA_BROKERS.
 */
export const PRODUCTION_TEST_DEFAULTS = (port: number | string) => ({ LOCATION_HOST: `localhost:${port}`, KAFKA_BROKERS: 'none' });

export interface ApiProcess {
  base: string;
  /** A bearer token of the test client (every scope), fetched once the process is up. */
  token: string;
  /** `{ authorization: 'Bearer …' }` plus `extra`, for fetch calls to the API. */
  headers(extra?: Record<string, string>): Record<string, string>;
  child: ChildProcess;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The API as a separate production-mode process, so a test can kill -9 it. The test receiver
 * (with `chaves`, default the test key) and client are registered first, as `npm run admin` would.
 */
/** `upPath`: what answers 200 once started (`/health/live` with a broker that never answers, where /health is 503). */
export async function startApiProcess(databaseUrl: string, port: number, env: Record<string, string> = {}, chaves = [TEST_PIX_KEY], waitForKafka = true, upPath = '/health'): Promise<ApiProcess> {
  ensureBuilt();
  await provisionAccess(databaseUrl, { chaves });
  const child = spawn(process.execPath, [path.join(root, 'tools/launch.js'), 'apps/api/src/main.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      MODE: 'production',
      AUTH_TOKEN_KEY: TEST_TOKEN_KEY,
      // These processes serve crash and load scenarios of hundreds of requests from one client;
      // rate limits have their own tests (rate-limit.int.ts) and are a test's explicit choice here.
      RATE_LIMIT_PER_SECOND: '0',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      // Test receivers listen on 127.0.0.1, which production mode otherwise refuses.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // No load balancer to wait for: SIGTERM in a test stops at once unless the test sets a delay.
      SHUTDOWN_DELAY: '0',
      ...testPayloadSigningEnv(),
      ...PRODUCTION_TEST_DEFAULTS(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; ; ) {
    if (child.exitCode !== null) throw new Error(`API exited during start-up:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`API did not start within 30 s:\n${out}`);
    }
    try {
      if ((await fetch(`${base}${upPath}`)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // Consumer groups join behind HTTP; tests that publish at once wait for them unless told not to.
  if (env.KAFKA_BROKERS && waitForKafka)
    for (const deadline = Date.now() + 90_000; ; await new Promise((r) => setTimeout(r, 200))) {
      const ready = (await (await fetch(`${base}/health/ready`)).json()) as Record<string, unknown>;
      if (!Object.values(ready).includes('joining')) break;
      if (Date.now() > deadline) throw new Error(`API consumer groups did not join within 90 s:\n${out}`);
    }
  let token: string;
  try {
    token = await fetchToken(base, TEST_CLIENT.clientId, TEST_CLIENT.secret);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${out}`);
  }
  return {
    base: `${base}/v2`,
    token,
    headers: (extra = {}) => ({ authorization: `Bearer ${token}`, ...extra }),
    child,
    output: () => out,
    kill: (signal = 'SIGKILL') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}
