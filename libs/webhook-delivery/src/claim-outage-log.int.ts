import { Client } from 'pg';
import { createTestDatabase, testServerUrl, type TestDatabase } from '@pix/testing';
import { Harness, sleep, waitFor } from './testing/harness';

// An operator audit (2026-11-28) closed the database for 22 s: the notifier wrote "claim failed"
// at error level once per poll for all of it. Now the first failure, the count once a minute,
// and the recovery.
describe('webhook delivery: claims failing through a database outage', () => {
  let db: TestDatabase;
  let h: Harness;

  beforeAll(async () => {
    db = await createTestDatabase('whd_claim_outage');
    h = await Harness.open(db.url);
  });
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  async function admin(sql: string) {
    const c = new Client({ connectionString: testServerUrl() });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  }

  it('logs the first failed claim and the recovery, not one line per poll', async () => {
    h.pool.on('error', () => undefined);
    // The worker's connections close once idle, and only idle sessions are terminated: a claim is
    // never cut mid-statement, so the first failure is always the refused connection. (Terminating
    // every session cut a claim in flight now and then, and the first line then said "terminating
    // connection due to administrator command": a CI run of 2026-11-28.)
    await h.startWorker({ pollMs: 50 }, { idleTimeoutMillis: 1 });
    await admin(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS false`);
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${db.name}' AND state = 'idle'`);
    await sleep(3000); // ~60 polls
    await admin(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS true`);
    await waitFor('claims resumed', () => h.logger.lines.some((l) => /claim resumed after \d+ failures/.test(l)), 10_000);
    const claimLines = h.logger.lines.filter((l) => /claim (failed|still failing)/.test(l));
    expect(claimLines).toHaveLength(1);
    expect(claimLines[0]).toMatch(/^ERROR webhook delivery: claim failed: .*not currently accepting connections; retrying/);
  });
});
