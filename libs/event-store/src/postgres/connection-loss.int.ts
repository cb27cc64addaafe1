import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { PostgresEventStore } from './postgres-event-store';
import { inTransaction } from './transaction';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(condition: () => boolean, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not reached within ${timeoutMs} ms`);
    await sleep(20);
  }
  return Date.now() - started;
}

/** The server ends our backend as a restart or failover would (57P01 admin_shutdown). */
const terminate = (admin: Pool, where: string, params: unknown[] = []) =>
  admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND ${where}`, params);

describe('postgres: a lost connection', () => {
  let db: TestDatabase;
  let pool: Pool;
  let admin: Pool;
  beforeAll(async () => {
    db = await createTestDatabase('conn_loss');
    pool = testPool(db.url);
    admin = testPool(db.url, 2);
  });
  afterAll(async () => {
    await pool.end();
    await admin.end();
    await db.drop();
  });

  it('while a transaction holds a client fails that unit of work only; the process and the pool carry on', async () => {
    const crashes: unknown[] = [];
    const onCrash = (e: unknown) => crashes.push(e);
    process.on('uncaughtException', onCrash);
    try {
      const work = inTransaction(pool, async (c) => {
        const { rows } = await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await terminate(admin, 'pid = $1', [rows[0].pid]);
        await sleep(300); // idle in transaction when the backend dies: the 'error' arrives with no query pending
        await c.query('SELECT 1');
      });
      await expect(work).rejects.toThrow();
      expect(crashes).toEqual([]);
      await expect(pool.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
      // The broken client was discarded, not handed out again.
      for (let i = 0; i < 12; i++) await expect(inTransaction(pool, (c) => c.query('SELECT 1'))).resolves.toBeDefined();
    } finally {
      process.off('uncaughtException', onCrash);
    }
  });

  it('LISTEN comes back after its backend dies, logs the outage once each way, and wakes subscribers again', async () => {
    const lines: string[] = [];
    const logger = { log: (m: string) => lines.push(`log ${m}`), warn: (m: string) => lines.push(`warn ${m}`) };
    const store = await PostgresEventStore.create({ poolConfig: { connectionString: db.url, max: 4 }, logger });
    const writer = await PostgresEventStore.create({ poolConfig: { connectionString: db.url, max: 4 }, listen: false });
    try {
      expect(store.listening).toBe(true);
      for (let round = 0; round < 3; round++) {
        await terminate(admin, `query ILIKE 'LISTEN %'`);
        await until(() => !store.listening, 2000);
        const restoredIn = await until(() => store.listening, 5000);
        expect(restoredIn).toBeLessThan(5000);
      }
      expect(lines.filter((l) => l.startsWith('warn') && /LISTEN connection lost/.test(l))).toHaveLength(3);
      expect(lines.filter((l) => /LISTEN connection restored/.test(l))).toHaveLength(3);
      // Another process's append wakes this one through the new connection.
      let woken = 0;
      store.onAppended(() => woken++);
      await sleep(100);
      woken = 0;
      await writer.appendToStream(`s-${randomUUID()}`, [{ id: randomUUID(), type: 'T', data: {} }], 'no_stream');
      await until(() => woken > 0, 2000);
    } finally {
      await store.close();
      await writer.close();
    }
  });
});
