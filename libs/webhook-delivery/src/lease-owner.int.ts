import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { claimDue } from './claim';
import { DEAD_OWNER_CONFIRM_MS, LEASE_OWNER_LOCK_CLASS } from './lease-owner';
import { cashIn, Harness, sleep, waitFor } from './testing/harness';

/**
 * A worker's leases name it, and it holds an advisory lock on that name for as long as its
 * session lives (lease-owner.ts): a worker killed mid-request leaves deliveries that others send
 * again within about a second, not when the lease runs out (timeout + margin, 45 s by default).
 */
describe('webhook delivery: leases of workers that are gone', () => {
  let db: TestDatabase;
  let h: Harness;
  const LEASE_MS = 60_000;

  beforeAll(async () => {
    db = await createTestDatabase('whd_lease_owner');
    h = await Harness.open(db.url);
  });
  afterEach(() => h.stopWorkers());
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  /** A "worker" on a session of its own: takes its lock, claims with the real claim query, never records. */
  async function deadWorker(chave: string, owner: number) {
    const session = new Client({ connectionString: db.url });
    session.on('error', () => undefined);
    await session.connect();
    await session.query('SELECT pg_advisory_lock($1, $2)', [LEASE_OWNER_LOCK_CLASS, owner]);
    const { id } = await h.outbox.enqueue(cashIn(chave));
    const leaseUntil = new Date(Date.now() + LEASE_MS);
    const [claim] = await claimDue(h.pool, { now: new Date(), limit: 10, maxInFlightPerKey: 2, leaseUntil, owner });
    expect(claim).toMatchObject({ id, attempt: 1 });
    return { id, session, leaseUntil };
  }

  it('a delivery whose worker died mid-request is sent again within seconds of its session ending, not when its lease ends', async () => {
    const r = await h.receiver();
    h.registrations.urls.set('key-dead', r.baseUrl);
    const { id, session, leaseUntil } = await deadWorker('key-dead', 4242);
    await h.startWorker({ pollMs: 10 });

    await sleep(2500); // more than two of the survivors' checks: the owner still lives
    expect(r.requests).toHaveLength(0);
    expect((await h.outbox.get(id))?.leaseUntil?.getTime()).toBe(leaseUntil.getTime());

    const died = Date.now();
    await session.end();
    await waitFor('sent again', () => r.requests.length === 1, 5000);
    // Confirmed dead after DEAD_OWNER_CONFIRM_MS, seen by checks a second apart.
    expect(r.requests[0].receivedAt - died).toBeGreaterThanOrEqual(DEAD_OWNER_CONFIRM_MS);
    expect(r.requests[0].receivedAt - died).toBeLessThan(DEAD_OWNER_CONFIRM_MS + 2500);
    await waitFor('delivered', async () => (await h.status(id)) === 'delivered', 5000);
    // The dead worker's attempt still counts: the takeover is attempt 2.
    expect((await h.outbox.attempts(id)).map((a) => a.attempt)).toEqual([2]);
    expect(h.logger.lines.some((l) => l.includes('1 deliveries leased by worker 4242, whose database session has ended, are due again now'))).toBe(true);
  });

  it('an owner whose session comes back within the confirmation time (a database restart) keeps its leases', async () => {
    const r = await h.receiver();
    h.registrations.urls.set('key-back', r.baseUrl);
    const { id, session, leaseUntil } = await deadWorker('key-back', 4343);
    await h.startWorker({ pollMs: 10 });
    await session.end();
    await sleep(DEAD_OWNER_CONFIRM_MS / 2);
    const back = new Client({ connectionString: db.url });
    back.on('error', () => undefined);
    await back.connect();
    await back.query('SELECT pg_advisory_lock($1, $2)', [LEASE_OWNER_LOCK_CLASS, 4343]);
    await sleep(DEAD_OWNER_CONFIRM_MS + 2000);
    expect(r.requests).toHaveLength(0);
    expect((await h.outbox.get(id))?.leaseUntil?.getTime()).toBe(leaseUntil.getTime());
    await back.end();
    await waitFor('sent once the owner is gone for good', () => r.requests.length === 1, DEAD_OWNER_CONFIRM_MS + 5000);
  });

  it("a worker's leases carry its number, held under a lock it takes again when its session is cut", async () => {
    const slow = await h.receiver({ responder: () => ({ status: 200, delayMs: 1500 }) });
    h.registrations.urls.set('key-owned', slow.baseUrl);
    await h.startWorker({ pollMs: 10 });
    const { id } = await h.outbox.enqueue(cashIn('key-owned'));
    await waitFor('in flight', () => slow.requests.length === 1, 5000);
    const lock = async () =>
      (
        await h.pool.query<{ owner: number; pid: number }>(
          `SELECT objid::int AS owner, pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1::oid AND objsubid = 2 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          [LEASE_OWNER_LOCK_CLASS],
        )
      ).rows;
    const [held] = await lock();
    const { rows } = await h.pool.query<{ lease_owner: number }>('SELECT lease_owner FROM webhook_outbox WHERE id = $1', [id]);
    expect(rows).toEqual([{ lease_owner: held.owner }]);

    await h.pool.query('SELECT pg_terminate_backend($1)', [held.pid]);
    const again = await waitFor('lock taken again', async () => (await lock()).find((l) => l.pid !== held.pid), 5000);
    expect(again.owner).toBe(held.owner);
    await waitFor('delivered', async () => (await h.status(id)) === 'delivered', 5000);
    expect(h.logger.lines.filter((l) => l.includes('no liveness lock'))).toHaveLength(1);
    expect(h.logger.lines.filter((l) => l.includes(`liveness lock taken again (worker ${held.owner})`))).toHaveLength(1);
  });
});
