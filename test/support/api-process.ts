import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** The token-signing key production-mode test processes share, so a test can mint tokens too. */
export const TEST_TOKEN_KEY = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

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

export interface ApiProcess {
  base: string;
  child: ChildProcess;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The API as a separate production-mode process, so a test can kill -9 it. */
export async function startApiProcess(databaseUrl: string, port: number, env: Record<string, string> = {}): Promise<ApiProcess> {
  ensureBuilt();
  const child = spawn(process.execPath, [path.join(root, 'tools/launch.js'), 'apps/api/src/main.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      MODE: 'production',
      AUTH_TOKEN_KEY: TEST_TOKEN_KEY,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      RECEIVER_NAME: 'Empresa de Logística SA',
      RECEIVER_CNPJ: '56989000019563',
      RECEIVER_STREET: 'Rua 15 Numero 1200',
      RECEIVER_CITY: 'São Paulo',
      RECEIVER_UF: 'SP',
      RECEIVER_CEP: '70800100',
      RECEIVER_PIX_KEYS: '5f84a4c5-c5cb-4599-9f13-7eb4d419dacc',
      // Test receivers listen on 127.0.0.1, which production mode otherwise refuses.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
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
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base: `${base}/v2`,
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
