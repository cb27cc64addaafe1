import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { Harness } from './testing/harness';

/** A server without autovacuum lets the outbox bloat (schema.ts, autovacuumWarning): the worker says so at start. */
describe('webhook delivery: autovacuum off is reported at start', () => {
  let db: TestDatabase;
  let h: Harness;

  beforeAll(async () => {
    db = await createTestDatabase('whd_autovacuum');
    h = await Harness.open(db.url);
  });
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  it('warns once when this server runs without autovacuum, and says nothing when it runs with it', async () => {
    const { rows } = await h.pool.query<{ on: boolean }>(`SELECT current_setting('autovacuum')::bool AS on`);
    await h.startWorker();
    const warnings = h.logger.lines.filter((l) => l.startsWith('WARN ') && l.includes('autovacuum off'));
    expect({ autovacuum: rows[0].on, warnings: warnings.length }).toEqual({ autovacuum: rows[0].on, warnings: rows[0].on ? 0 : 1 });
  });
});
