import { randomInt } from 'node:crypto';
import { Client, type Pool } from 'pg';
import type { DeliveryLogger } from './types';

/** First key of the two-key advisory locks that mark a delivery worker alive (ADR 15). */
export const LEASE_OWNER_LOCK_CLASS = 727_103;

/**
 * Leases of workers whose database session has ended end now (`$1`): their deliveries are due
 * again at once instead of when the lease runs out (timeout + margin, 45 s by default). A worker
 * holds the advisory lock (LEASE_OWNER_LOCK_CLASS, its owner number) on a session of its own for
 * as long as it lives, and PostgreSQL drops it when that session ends (kill -9 closes the socket).
 * Leases written without an owner, or whose owner's session lingers (a host gone without closing
 * its connections), still run out by time alone. The leased rows are found through the partial
 * index of leases; the lock table is read once.
 */
const RELEASE_DEAD_LEASES = `
WITH live AS MATERIALIZED (
  SELECT l.objid::bigint AS owner FROM pg_locks l
   WHERE l.locktype = 'advisory' AND l.classid = ${LEASE_OWNER_LOCK_CLASS}::oid AND l.objsubid = 2 AND l.granted
     AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
)
UPDATE webhook_outbox o SET lease_until = $1
 WHERE o.status = 'pending' AND o.lease_until IS NOT NULL AND o.lease_until > $1
   AND o.lease_owner IS NOT NULL AND o.lease_owner NOT IN (SELECT owner FROM live)
RETURNING o.lease_owner`;

/** How long to wait before taking the lock again after its session was lost. */
const RECONNECT_DELAY_MS = 1000;

/**
 * This worker's mark of life: a number written on every lease it takes (`lease_owner`) and an
 * advisory lock on that number, held on a connection of its own (not one of the pool's, which come
 * and go). Other workers free the leases of owners whose lock is gone (`releaseDead`). While the
 * connection is lost, `current()` is null and leases carry no owner: they run out by time, as
 * leases did before owners existed, so a worker that only lost its database session is not
 * mistaken for a dead one for what it takes meanwhile.
 */
export class LeaseOwner {
  private client?: Client;
  private owner?: number;
  private held = false;
  private stopped = false;
  private retry?: NodeJS.Timeout;
  /** Said once per outage, not at every retry. */
  private warned = false;

  constructor(
    private readonly pool: Pool,
    private readonly logger: DeliveryLogger,
  ) {}

  /** The owner number to write on leases now, or null while the lock is not held. */
  current(): number | null {
    return this.held ? this.owner! : null;
  }

  /** Takes the lock; a failure is logged and retried, and leases meanwhile carry no owner. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  /**
   * Ends leases whose owner's session is gone; answers how many deliveries became due. Run on this
   * worker's own session, so a lost session shows here too and the lock is taken again.
   */
  async releaseDead(now: Date): Promise<number> {
    if (!this.held || !this.client) return 0;
    try {
      const { rows } = await this.client.query<{ lease_owner: number }>({ name: 'webhook_release_dead_leases', text: RELEASE_DEAD_LEASES, values: [now] });
      if (rows.length > 0) {
        const owners = [...new Set(rows.map((r) => r.lease_owner))].join(', ');
        this.logger.error(`webhook delivery: ${rows.length} deliveries leased by worker ${owners}, whose database session has ended, are due again now`);
      }
      return rows.length;
    } catch (error) {
      this.lost(error as Error);
      return 0;
    }
  }

  /** Ends the session, which frees the lock. Call once nothing is leased by this worker any more. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.held = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    // The pool's own options object, as the pool builds its clients (a copy would lose the password, kept out of enumeration).
    const client = new Client(this.pool.options);
    client.on('error', (error) => this.lost(error, client));
    try {
      await client.connect();
      // Only this statement runs on the session: the partial index of leases, not the table.
      await client.query('SET enable_seqscan = off');
      // Keep the number across reconnections (leases taken before the loss still name it); a
      // new one only when another worker holds it (a random collision).
      for (let tries = 0; ; tries += 1) {
        this.owner ??= randomInt(1, 2 ** 31 - 1);
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [LEASE_OWNER_LOCK_CLASS, this.owner]);
        if (rows[0].locked) break;
        if (tries >= 10) throw new Error('no free owner number after 10 tries');
        this.owner = undefined;
      }
      if (this.stopped) return void (await client.end());
      this.client = client;
      this.held = true;
      this.warned = false;
    } catch (error) {
      await client.end().catch(() => undefined);
      this.lost(error as Error);
    }
  }

  /** The session is gone or could not be opened: leases carry no owner until the lock is taken again. */
  private lost(error: Error, client?: Client): void {
    if (client && client !== this.client) return; // an earlier session's late error
    if (this.held || !this.warned) {
      this.logger.error(`webhook delivery: no liveness lock (${error.message}); this worker's leases run out by time until it is taken again`);
      this.warned = true;
    }
    this.held = false;
    this.client?.end().catch(() => undefined);
    this.client = undefined;
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, RECONNECT_DELAY_MS);
    this.retry.unref();
  }
}
