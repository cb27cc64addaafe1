import { Pool } from 'pg';
import { DeliveryWorker } from '../delivery-worker';
import type { DeliveryConfig } from '../config';
import { NotificationOutbox } from '../notification-outbox';
import { systemClock, type PixNotificationInput, type WebhookRegistrations } from '../types';
import { TestReceiver } from './test-receiver';

/** Registrations held in memory by the test (the app injects its authoritative store). */
export class MapRegistrations implements WebhookRegistrations {
  readonly urls = new Map<string, string>();
  /** When a key's webhook was last removed before its current registration (a DELETE and a PUT again). */
  readonly removed = new Map<string, string>();
  async urlFor(chave: string): Promise<string | undefined> {
    return this.urls.get(chave);
  }
  removedBefore(chave: string): string | undefined {
    return this.removed.get(chave);
  }
}

/** Collects the worker's log lines; prints nothing. */
export class MemoryLogger {
  readonly lines: string[] = [];
  log(m: string): void {
    this.lines.push(m);
  }
  error(m: string): void {
    this.lines.push(`ERROR ${m}`);
  }
  warn(m: string): void {
    this.lines.push(`WARN ${m}`);
  }
}

/** Quick settings for tests: short schedule, no jitter, fast polling. */
// Test receivers listen on 127.0.0.1: private targets are allowed here, refused by default.
export const FAST: Partial<DeliveryConfig> = { timeoutMs: 2000, schedule: [50, 50, 50], jitter: 0, pollMs: 20, concurrency: 16, maxInFlightPerKey: 2, allowPrivateTargets: true };

let seq = 0;
/** An official-looking Pix object for a cash-in to `chave`. */
export function cashIn(chave: string, overrides: Partial<PixNotificationInput> = {}): PixNotificationInput {
  seq += 1;
  const endToEndId = overrides.endToEndId ?? `E1234567820261122101500${String(seq).padStart(9, '0')}`.slice(0, 32);
  const txid = overrides.txid ?? `txid${Date.now().toString(36)}${seq}`.padEnd(26, '0');
  const pix = overrides.pix ?? { endToEndId, txid, valor: '123.45', chave, horario: '2026-11-22T10:15:00.123Z', infoPagador: 'pagamento' };
  return { endToEndId, chave, txid, pix };
}

/** One outbox on a test database plus the workers a test starts; `close` tears everything down. */
export class Harness {
  readonly registrations = new MapRegistrations();
  readonly logger = new MemoryLogger();
  private readonly workers: DeliveryWorker[] = [];
  private readonly pools: Pool[] = [];
  private readonly receivers: TestReceiver[] = [];

  private constructor(
    readonly url: string,
    readonly pool: Pool,
    readonly outbox: NotificationOutbox,
  ) {}

  static async open(url: string): Promise<Harness> {
    const pool = testPool(url);
    return new Harness(url, pool, await NotificationOutbox.create(pool));
  }

  /**
   * Starts a worker; `ownPool` gives it separate connections, as a second process would have (a
   * number: they close after that many idle milliseconds).
   */
  async startWorker(config: Partial<DeliveryConfig> = {}, ownPool: boolean | { idleTimeoutMillis: number } = false): Promise<DeliveryWorker> {
    let pool = this.pool;
    if (ownPool) {
      pool = typeof ownPool === 'object' ? new Pool({ connectionString: this.url, ...ownPool }).on('error', () => undefined) : testPool(this.url);
      this.pools.push(pool);
    }
    const worker = new DeliveryWorker(pool, this.registrations, { ...FAST, ...config }, systemClock, this.logger);
    await worker.start();
    this.workers.push(worker);
    return worker;
  }

  async stopWorkers(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.stop()));
  }

  /** A receiver that `close` closes. */
  async receiver(...args: Parameters<typeof TestReceiver.start>): Promise<TestReceiver> {
    const r = await TestReceiver.start(...args);
    this.receivers.push(r);
    return r;
  }

  /** A notification's current status. */
  async status(id: string): Promise<string | undefined> {
    return (await this.outbox.get(id))?.status;
  }

  async close(): Promise<void> {
    await this.stopWorkers();
    await Promise.all(this.receivers.splice(0).map((r) => r.close()));
    await Promise.all([...this.pools, this.pool].map((p) => p.end()));
  }
}

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/**
 * pg's Pool.end() resolves before its sockets are closed, so dropping the database can still hit
 * an idle connection; without an 'error' listener that would crash the test process.
 */
function testPool(url: string): Pool {
  const pool = new Pool({ connectionString: url, max: 10 });
  pool.on('error', () => undefined);
  return pool;
}

/** Polls `check` until it returns truthy or `timeoutMs` passes (then throws with `what`). */
export async function waitFor<T>(what: string, check: () => Promise<T> | T, timeoutMs = 10_000, intervalMs = 20): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
