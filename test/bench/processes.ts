import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fetchToken, PRODUCTION_TEST_DEFAULTS, provisionAccess, TEST_CLIENT, TEST_TOKEN_KEY } from '../support/api-process';
import { testPayloadSigningEnv } from '../support/payload-keys';
import { setApiToken } from './auth';
import { RECEBEDOR } from './fixtures';

const root = path.resolve(__dirname, '..', '..', '..');
const launcher = path.join(root, 'tools', 'launch.js');

export interface Child {
  name: string;
  proc: ChildProcess;
  port: number;
  url: string;
  /** Peak resident set size so far (Linux VmHWM), in MiB. */
  peakRssMiB(): number | undefined;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function peakRss(pid: number | undefined): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Starts `node [nodeArgs] tools/launch.js <entry>` and waits until `readyPath` answers 200. */
async function start(name: string, entry: string, env: Record<string, string>, port: number, readyPath: string, nodeArgs: string[] = []): Promise<Child> {
  const proc = spawn(process.execPath, [...nodeArgs, launcher, entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  let stopping = false;
  const exited = new Promise<void>((resolve) =>
    proc.once('exit', (code, signal) => {
      if (!stopping) console.error(`[bench] ${name} exited unexpectedly (code ${code}, signal ${signal}); its last output:\n${output}`);
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode} during start-up:\n${output}`);
    try {
      if ((await fetch(`${url}${readyPath}`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      stopping = true;
      proc.kill('SIGKILL');
      throw new Error(`${name} did not become ready within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    name,
    proc,
    port,
    url,
    peakRssMiB: () => peakRss(proc.pid),
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      stopping = true;
      proc.kill('SIGINT');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The API in production mode, after its receiver and client are registered; its token goes on every bench request. */
export async function startApi(databaseUrl: string, nodeArgs: string[] = [], extra: Record<string, string> = {}): Promise<Child> {
  const { id, chaves, ...dados } = RECEBEDOR;
  await provisionAccess(databaseUrl, { receiver: { id, ...dados }, chaves, client: TEST_CLIENT });
  const port = await freePort();
  // The bench's receiver listens on 127.0.0.1, which production mode otherwise refuses; the
  // per-client rate limit (200/s by default) would cap what the bench measures.
  const env = { MODE: 'production', SHUTDOWN_DELAY: '0', AUTH_TOKEN_KEY: TEST_TOKEN_KEY, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '0', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...testPayloadSigningEnv(), ...PRODUCTION_TEST_DEFAULTS(port), ...extra };
  const api = await start('api', 'apps/api/src/main.js', env, port, '/health', nodeArgs);
  setApiToken(await fetchToken(api.url, TEST_CLIENT.clientId, TEST_CLIENT.secret));
  return api;
}

/** Anything the bench started and must stop. */
export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * A Kafka broker for the notifier: KAFKA_BROKERS if set, else the throw-away single-node broker
 * of tools/kafka (JDK and cached jars; see tools/kafka/README.md).
 */
export async function startKafka(): Promise<Stoppable & { brokers: string }> {
  if (process.env.KAFKA_BROKERS) return { brokers: process.env.KAFKA_BROKERS, stop: async () => undefined };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startKafka: start } = require(path.join(root, 'tools', 'kafka', 'kafka.js')) as { startKafka(o: object): Promise<{ brokers: string; stop(): Promise<void> }> };
  return start({});
}

/** `extra`: e.g. WEBHOOK_CA, NOTIFIER_GROUP_ID. */
export async function startNotifier(databaseUrl: string, brokers: string, extra: Record<string, string> = {}): Promise<Child> {
  const port = await freePort();
  const env = { NOTIFIER_PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, KAFKA_BROKERS: brokers, NOTIFIER_GROUP_ID: `bench-${port}`, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...extra };
  return start('notifier', 'apps/notifier/src/main.js', env, port, '/health');
}

/** The HTTP ceiling: bare Fastify answering PUT and GET with the API's own response bodies. */
export async function startBareFastify(putResponse: string, getResponse: string): Promise<Child> {
  const port = await freePort();
  const env = { BARE_PORT: String(port), BARE_PUT_RESPONSE: putResponse, BARE_GET_RESPONSE: getResponse };
  return start('bare-fastify', 'test/bench/bare-fastify.js', env, port, '/health');
}
