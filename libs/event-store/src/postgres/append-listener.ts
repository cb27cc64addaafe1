import { Client, type ClientConfig } from 'pg';

/** Where a library reports state changes; the app decides how they are logged. */
export interface StoreLogger {
  log(message: string): void;
  warn(message: string): void;
}

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 5000;

/**
 * The LISTEN connection for appends made by other processes, kept for as long as the process
 * runs: a lost connection (server restart, failover, network) is re-established with capped
 * backoff, never given up. Subscribers poll meanwhile, so a wake-up missed during the outage
 * only costs latency; on recovery everyone is woken once to catch up. Each outage is logged
 * once when it starts and once when it ends.
 */
export class AppendListener {
  private client?: Client;
  private timer?: NodeJS.Timeout;
  private delayMs = FIRST_DELAY_MS;
  private down = false;
  private closed = false;

  constructor(
    private readonly config: ClientConfig,
    private readonly channel: string,
    private readonly wake: () => void,
    private readonly logger?: StoreLogger,
  ) {}

  get listening(): boolean {
    return this.client !== undefined;
  }

  /** One attempt now; if it fails the listener keeps trying in the background. */
  start(): Promise<void> {
    return this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    this.timer = undefined;
    if (this.closed) return;
    // keepAlive notices a peer that vanished without closing (network partition, host loss).
    const client = new Client({ ...this.config, connectionTimeoutMillis: this.config.connectionTimeoutMillis || 5000, keepAlive: true });
    let dropped = false;
    const drop = (error?: Error) => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) this.client = undefined;
      client.end().catch(() => undefined);
      this.scheduleRetry(error);
    };
    client.on('error', drop);
    client.on('end', () => drop());
    client.on('notification', () => this.wake());
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      drop(error as Error);
      return;
    }
    if (dropped) return;
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.delayMs = FIRST_DELAY_MS;
    if (this.down) {
      this.down = false;
      this.logger?.log('event store: LISTEN connection restored');
      this.wake(); // appends made while we were deaf
    }
  }

  private scheduleRetry(error?: Error): void {
    if (this.closed) return;
    if (!this.down) {
      this.down = true;
      this.logger?.warn(`event store: LISTEN connection lost (${error?.message ?? 'closed by the server'}); reconnecting with backoff, subscribers poll meanwhile`);
    }
    const delay = this.delayMs;
    this.delayMs = Math.min(this.delayMs * 2, MAX_DELAY_MS);
    this.timer = setTimeout(() => void this.connect(), delay);
    this.timer.unref();
  }
}
