import { randomInt } from 'node:crypto';
import { Client, type Pool } from 'pg';
import type { DeliveryLogger } from './types';

/** First key of the two-key advisory locks that mark a delivery worker alive (ADR 15). */
export const LEASE_OWNER_LOCK_CLASS = 727_103;

const LIVE_OWNERS = `
live AS MATERIALIZED (
  SELECT l.objid::bigint AS owner FROM pg_locks l
   WHERE l.locktype = 'advisory' AND l.classid = ${LEASE_OWNER_LOCK_CLASS}::oid AND l.objsubid = 2 AND l.granted
     AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
)`;
const LEASED_BY_THE_DEAD = `o.status = 'pending' AND o.lease_until IS NOT NULL AND o.lease_until > $1
   AND o.lease_owner IS NOT NULL AND o.lease_owner NOT IN (SELECT owner FROM live)`;

/**
 * Owners of live leases (`$1`: now) whose lock is gone. A worker holds the advisory lock
 * (LEASE_OWNER_LOCK_CLASS, its owner number) on a session of its own for as long as it lives,
 * and PostgreSQL drops it when that session ends (kill -9 closes the socket). The leased rows are
 * found through the partial index of leases; the lock table is read only when some lease is live.
 */
const DEAD_OWNERS = `WITH ${LIVE_OWNERS} SELECT DISTINCT o.lease_owner AS owner FROM webhook_outbox o WHERE ${LEASED_BY_THE_DEAD}`;

/** Their leases (`$2`: the owners) end now: the deliveries are due at once. Owners back meanwhile keep theirs. */
const RELEASE = `WITH ${LIVE_OWNERS} UPDATE webhook_outbox o SET lease_until = $1 WHERE o.lease_owner = ANY($2) AND ${LEASED_BY_THE_DEAD} RETURNING o.lease_owner`;

/** How long to wait before taking the lock again after its session was lost. */
const RECONNECT_DELAY_MS = 1000;
/**
 * How long an owner must stay without its lock before its leases end: a database restart or
 * failover drops every worker's lock at once, and each takes it again within RECONNECT_DELAY_MS;
 * their POSTs in flight meanwhile must not be sent a second time by whoever reconnected first.
 */
export const DEAD_OWNER_CONFIRM_MS = 2 * RECONNECT_DELAY_MS;

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
  /** Owners of live leases seen without their lock, and since when (this worker's clock). */
  private suspects = new Map<number, number>();

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
   * Ends the leases of owners without their lock for DEAD_OWNER_CONFIRM_MS (seen by this worker's
   * checks); answers how many deliveries became due. Run on this worker's own session, so a lost
   * session shows here too and the lock is taken again. Leases without an owner, or whose owner's
   * session lingers on the server (a host gone without closing its sockets), end by time alone.
   */
  async releaseDead(now: Date): Promise<number> {
    if (!this.held || !this.client) return 0;
    try {
      const dead = (await this.client.query<{ owner: number }>({ name: 'webhook_dead_lease_owners', text: DEAD_OWNERS, values: [now] })).rows.map((r) => r.owner);
      const confirmed = dead.filter((owner) => now.getTime() - (this.suspects.get(owner) ?? now.getTime()) >= DEAD_OWNER_CONFIRM_MS);
      this.suspects = new Map(dead.map((owner) => [owner, this.suspects.get(owner) ?? now.getTime()]));
      if (confirmed.length === 0) return 0;
      const { rows } = await this.client.query<{ lease_owner: number }>({ name: 'webhook_release_dead_leases', text: RELEASE, values: [now, confirmed] });
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
      // The pair of the "no liveness lock" line: an operator sees the outage end, not only begin.
      if (this.warned) this.logger.log(`webhook delivery: liveness lock taken again (worker ${this.owner}); leases carry its number again`);
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
