import { createHmac } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { notificationIdFor } from './notification-id';
import { cashIn, Harness, sleep, waitFor } from './testing/harness';
import { TestReceiver } from './testing/test-receiver';

// The secret of the Standard Webhooks reference examples.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describe('webhook delivery: the request, deduplication and cancellation', () => {
  let db: TestDatabase;
  let h: Harness;
  let receiver: TestReceiver;

  beforeAll(async () => {
    db = await createTestDatabase('whd_request');
    h = await Harness.open(db.url);
    receiver = await TestReceiver.start();
    await h.startWorker({ signingSecret: SECRET });
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
    await db?.drop();
  });

  it('POSTs {"pix":[pix]} to {webhookUrl}/pix with webhook-id and a verifiable Standard Webhooks signature', async () => {
    h.registrations.urls.set('key-plain', `${receiver.baseUrl}/hook`);
    const input = cashIn('key-plain');
    const { id, created } = await h.outbox.enqueue(input);
    expect(created).toBe(true);
    expect(id).toBe(notificationIdFor(input.endToEndId));
    const [request] = await waitFor('the request', () => receiver.byId(id).length === 1 && receiver.byId(id));

    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hook/pix');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({ pix: [input.pix] });
    expect(request.headers['webhook-id']).toBe(id);

    const timestamp = request.headers['webhook-timestamp'] as string;
    expect(timestamp).toMatch(/^\d+$/);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(30);
    // Verified the way a receiver would, independently of our signing code.
    const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64');
    expect(request.headers['webhook-signature']).toBe(`v1,${expected}`);

    await waitFor('delivered', async () => (await h.outbox.get(id))?.status === 'delivered');
    const attempts = await h.outbox.attempts(id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attempt: 1, url: `${receiver.baseUrl}/hook/pix`, statusCode: 200, error: null, outcome: 'delivered' });
    expect(attempts[0].latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('appends /pix by plain concatenation, also after a query string', async () => {
    h.registrations.urls.set('key-query', `${receiver.baseUrl}/hook?a=`);
    const { id } = await h.outbox.enqueue(cashIn('key-query'));
    const [request] = await waitFor('the request', () => receiver.byId(id).length === 1 && receiver.byId(id));
    expect(request.url).toBe('/hook?a=/pix');
    await waitFor('delivered', async () => (await h.outbox.get(id))?.status === 'delivered');
    // The attempt log keeps what the logs show: the query (and the /pix after it) is left out.
    expect((await h.outbox.attempts(id))[0].url).toBe(`${receiver.baseUrl}/hook?…`);
  });

  it('logs the attempt with scheme, host, port and path but not the query (receivers put tokens there)', async () => {
    h.registrations.urls.set('key-token', `${receiver.baseUrl}/hook?tok=QSECRETQ`);
    const { id } = await h.outbox.enqueue(cashIn('key-token'));
    await waitFor('delivered', async () => (await h.outbox.get(id))?.status === 'delivered');
    const lines = h.logger.lines.filter((l) => l.includes(id));
    expect(lines).toEqual([expect.stringContaining(`attempt 1 to ${receiver.baseUrl}/hook?… for chave key-token, endToEndId `)]);
    expect(lines.join('\n')).not.toContain('QSECRETQ');
  });

  it('the same endToEndId enqueued twice (even concurrently) gives one notification and one delivery', async () => {
    h.registrations.urls.set('key-dup', receiver.baseUrl);
    const input = cashIn('key-dup');
    // Concurrent inserts race on both unique indexes (id and endToEndId); none may fail.
    const results = await Promise.all(Array.from({ length: 10 }, () => h.outbox.enqueue(input)));
    const again = await h.outbox.enqueue(input);
    expect(new Set([...results, again].map((r) => r.id)).size).toBe(1);
    expect([...results, again].filter((r) => r.created)).toHaveLength(1);
    const { id } = again;
    await waitFor('delivered', async () => (await h.outbox.get(id))?.status === 'delivered');
    await sleep(300);
    expect(receiver.byId(id)).toHaveLength(1);
    expect(await h.outbox.attempts(id)).toHaveLength(1);
  });

  it('sends nothing and cancels with a reason when the key has no webhook; resend after re-registration delivers the same id', async () => {
    const input = cashIn('key-removed');
    const { id } = await h.outbox.enqueue(input);
    const cancelled = await waitFor('cancelled', async () => {
      const n = await h.outbox.get(id);
      return n?.status === 'cancelled' && n;
    });
    expect(cancelled.reason).toMatch(/no webhook registered for chave key-removed/);
    expect(receiver.byId(id)).toHaveLength(0);
    expect(await h.outbox.attempts(id)).toHaveLength(0);

    h.registrations.urls.set('key-removed', receiver.baseUrl);
    expect(await h.outbox.resend({ endToEndIds: [input.endToEndId] })).toBe(1);
    await waitFor('delivered', async () => (await h.outbox.get(id))?.status === 'delivered');
    expect(receiver.byId(id)).toHaveLength(1);
    expect(receiver.byId(id)[0].url).toBe('/pix');
  });

  it('stats report pending work and the age of the oldest undelivered notification', async () => {
    await waitFor('queue drained', async () => (await h.outbox.stats()).pending === 0);
    expect(await h.outbox.stats()).toEqual({ pending: 0, dead: 0, inFlight: 0, oldestPendingAgeMs: null });
    await h.stopWorkers();
    h.registrations.urls.set('key-stats', receiver.baseUrl);
    await h.outbox.enqueue(cashIn('key-stats'));
    await sleep(100);
    const stats = await h.outbox.stats();
    expect(stats.pending).toBe(1);
    expect(stats.oldestPendingAgeMs).toBeGreaterThanOrEqual(90);
  });
});
