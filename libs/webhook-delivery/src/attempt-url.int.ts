import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { cashIn, Harness, waitFor } from './testing/harness';
import { TestReceiver } from './testing/test-receiver';

// A receiver's webhook URL may carry a token in its query (or userinfo): it is POSTed to whole,
// but the attempt log keeps, and the operator endpoint shows, only what the logs show of it.
describe('webhook delivery: the URL in the attempt log', () => {
  let db: TestDatabase;
  let h: Harness;
  let receiver: TestReceiver;
  const stored = async (id: string) =>
    (await h.pool.query<{ row: string }>('SELECT row_to_json(a)::text AS row FROM webhook_outbox_attempts a WHERE notification_id = $1 ORDER BY seq', [id])).rows.map((r) => r.row);

  beforeAll(async () => {
    db = await createTestDatabase('whd_attempt_url');
    h = await Harness.open(db.url);
    // 413 to any batch of more than one Pix: the split's attempt is written by its own statement.
    receiver = await TestReceiver.start({ responder: (q) => ({ status: (JSON.parse(q.body).pix as unknown[]).length > 1 ? 413 : 200 }) });
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
    await db?.drop();
  });

  it('POSTs to the whole URL but stores scheme, host, port and path only', async () => {
    const [host, port] = [receiver.baseUrl.replace('http://', '').split(':')[0], receiver.port];
    h.registrations.urls.set('key-secret', `http://QUSERQ:QPASSQ@${host}:${port}/hook?tok=QSECRETQ`);
    const { id } = await h.outbox.enqueue(cashIn('key-secret'));
    await h.startWorker({});
    await waitFor('delivered', async () => (await h.outbox.get(id))?.status === 'delivered');
    // What is POSTed does not change: the query (with /pix after it, BCB's plain concatenation) and the credentials.
    expect(receiver.byId(id).map((r) => [r.url, r.headers.authorization])).toEqual([['/hook?tok=QSECRETQ/pix', `Basic ${Buffer.from('QUSERQ:QPASSQ').toString('base64')}`]]);
    expect((await h.outbox.attempts(id)).map((a) => a.url)).toEqual([`${receiver.baseUrl}/hook?…`]);
    const rows = await stored(id);
    expect(rows).toHaveLength(1);
    expect(rows.join()).not.toMatch(/QSECRETQ|QUSERQ|QPASSQ/);
  });

  it("also when a batch is split (413): that attempt's row keeps no query either", async () => {
    await h.stopWorkers();
    h.registrations.urls.set('key-split', `${receiver.baseUrl}/split?tok=QSECRETQ`);
    const ids = [(await h.outbox.enqueue(cashIn('key-split'))).id, (await h.outbox.enqueue(cashIn('key-split'))).id];
    await h.startWorker({ maxBatch: 2, maxInFlightPerKey: 1 });
    await waitFor('both delivered', async () => (await Promise.all(ids.map((id) => h.outbox.get(id)))).every((n) => n?.status === 'delivered'));
    const attempts = await h.outbox.attempts(ids[0]);
    expect(attempts.map((a) => [a.statusCode, a.url])).toEqual([
      [413, `${receiver.baseUrl}/split?…`],
      [200, `${receiver.baseUrl}/split?…`],
    ]);
    expect((await stored(ids[0])).join()).not.toContain('QSECRETQ');
  });

  it('rows stored whole before (or by an older process) are shown without query or userinfo', async () => {
    const { id } = await h.outbox.enqueue(cashIn('key-legacy'));
    await h.pool.query(
      `INSERT INTO webhook_outbox_attempts (notification_id, attempt, attempted_at, url, status_code, latency_ms, error, outcome)
       VALUES ($1, 1, now(), 'https://u:QPASSQ@hooks.example:8443/cb?tok=QSECRETQ/pix', 500, 3, 'HTTP 500', 'retry')`,
      [id],
    );
    expect((await h.outbox.attempts(id)).map((a) => a.url)).toEqual(['https://hooks.example:8443/cb?…']);
    const listed = (await h.outbox.recent(200)).find((n) => n.id === id);
    expect(listed?.attempts.map((a) => a.url)).toEqual(['https://hooks.example:8443/cb?…']);
  });
});
