import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ensureBuilt } from './api-process';

const root = path.resolve(__dirname, '../..');

export interface NotifierProcess {
  /** http://127.0.0.1:<NOTIFIER_PORT> (operator endpoints under /notifier, /health). */
  base: string;
  child: ChildProcess;
  output(): string;
  /** Sends `signal` (default SIGKILL) and resolves once the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** SIGTERM (clean shutdown: consumer leaves its group, offsets committed), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** GET on the operator endpoints, parsed. */
  get(p: string): Promise<{ status: number; body: any }>;
}

/**
 * The notifier app as a separate process (compiled, through tools/launch.js), so a test can kill
 * -9 it. `env` gives DATABASE_URL, KAFKA_BROKERS, NOTIFIER_PORT, WEBHOOK_* …; resolves once
 * /health answers.
 */
/** The operator token test notifiers get unless a test sets its own. */
export const OPERATOR_TOKEN = 'test-operator-token-0123456789';

/** `upPath`: what answers 200 once started (`/health/live` with a broker that never answers, where /health is 503). */
export async function startNotifierProcess(env: Record<string, string>, waitForKafka = true, upPath = '/health'): Promise<NotifierProcess> {
  ensureBuilt();
  if (!env.NOTIFIER_PORT) throw new Error('startNotifierProcess: NOTIFIER_PORT is required');
  const child = spawn(process.execPath, [path.join(root, 'tools/launch.js'), 'apps/notifier/src/main.js'], {
    cwd: root,
    // Test receivers listen on 127.0.0.1, which the notifier otherwise refuses. No load balancer
    // to wait for: SIGTERM stops at once unless the test sets SHUTDOWN_DELAY.
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', SHUTDOWN_DELAY: '0', NOTIFIER_OPERATOR_TOKEN: OPERATOR_TOKEN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const base = `http://127.0.0.1:${env.NOTIFIER_PORT}`;
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const kill = (signal: NodeJS.Signals = 'SIGKILL') =>
    new Promise<void>((resolve) => {
      if (exited()) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  const proc: NotifierProcess = {
    base,
    child,
    output: () => out,
    kill,
    async stop(graceMs = 15_000) {
      if (exited()) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await kill('SIGTERM');
      clearTimeout(timer);
    },
    async get(p) {
      const r = await fetch(`${base}${p}`, { headers: { authorization: `Bearer ${env.NOTIFIER_OPERATOR_TOKEN ?? OPERATOR_TOKEN}` } });
      const text = await r.text();
      return { status: r.status, body: text ? JSON.parse(text) : undefined };
    },
  };
  for (const deadline = Date.now() + (waitForKafka ? 90_000 : 30_000); ; await new Promise((r) => setTimeout(r, 100))) {
    if (exited()) throw new Error(`notifier exited during start-up:\n${out}`);
    try {
      const health = await fetch(`${base}${upPath}`);
      // The consumer group joins behind HTTP; tests that publish at once wait for it unless told not to.
      if (health.ok && (!waitForKafka || ((await health.json()) as { kafka?: { consumer?: string } }).kafka?.consumer === 'joined')) return proc;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await kill();
      throw new Error(`notifier did not start within 30 s:\n${out}`);
    }
  }
}

/** SIGTERM a child (e.g. an ApiProcess's), SIGKILL after `graceMs`; resolves once it is gone. */
export function stopChild(child: ChildProcess | undefined, graceMs = 15_000): Promise<void> {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
