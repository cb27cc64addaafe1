import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { cashIn, Harness, sleep, waitFor } from './testing/harness';

/**
 * A receiver answered 200, and the statement writing that result failed (a database restart, a
 * cut connection): the result is written again while the lease lasts, instead of the delivery
 * being sent again when its lease ends with that answer missing from the attempt log (outage audit).
 */
describe('webhook delivery: a result whose write failed', () => {
  let db: TestDatabase;
  let h: Harness;

  beforeAll(async () => {
    db = await createTestDatabase('whd_result_rewrite');
    h = await Harness.open(db.url);
  });
  afterEach(() => h.stopWorkers());
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  /** Every write of an attempt fails until `healed` (the statement inserts the attempt log first). */
  const breakAttemptLog = () =>
    h.pool.query(`
      CREATE OR REPLACE FUNCTION test_refuse_attempts() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the database system is shutting down'; END $$;
      CREATE TRIGGER test_refuse_attempts BEFORE INSERT ON webhook_outbox_attempts FOR EACH ROW EXECUTE FUNCTION test_refuse_attempts();`);
  const healAttemptLog = () => h.pool.query('DROP TRIGGER IF EXISTS test_refuse_attempts ON webhook_outbox_attempts');

  it('is written again once the database answers: one POST, delivered, its 200 in the attempt log', async () => {
    let broken: Promise<unknown> | undefined;
    const r = await h.receiver({
      responder: () => {
        broken ??= breakAttemptLog();
        return { status: 200, delayMs: 300 };
      },
    });
    h.registrations.urls.set('key-rewrite', r.baseUrl);
    // A lease of 6 s: without the rewrite the delivery went again once it ended.
    await h.startWorker({ timeoutMs: 2000, leaseMarginMs: 4000 });
    const { id } = await h.outbox.enqueue(cashIn('key-rewrite'));
    await waitFor('the POST answered', () => r.requests.length === 1 && r.requests[0].answered === true, 5000);
    await broken;
    await sleep(1200); // a few failed writes
    expect(await h.status(id)).toBe('pending');
    await healAttemptLog();

    await waitFor('delivered', async () => (await h.status(id)) === 'delivered', 5000);
    await sleep(6500); // past the lease: nothing more is sent
    expect(r.requests).toHaveLength(1);
    expect((await h.outbox.attempts(id)).map((a) => [a.attempt, a.statusCode, a.outcome])).toEqual([[1, 200, 'delivered']]);
    expect(h.logger.lines.filter((l) => l.includes('results of 1 deliveries not written (the database system is shutting down); written again in 250 ms'))).toHaveLength(1);
  });
});
