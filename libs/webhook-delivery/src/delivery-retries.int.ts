import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { cashIn, Harness, sleep, waitFor } from './testing/harness';
import { TestReceiver } from './testing/test-receiver';

describe('webhook delivery: retries, dead notifications and resend', () => {
  let db: TestDatabase;
  let h: Harness;
  const receiver: Harness['receiver'] = (...args) => h.receiver(...args);
  const status = (id: string) => h.status(id);

  beforeAll(async () => {
    db = await createTestDatabase('whd_retries');
    h = await Harness.open(db.url);
    await h.startWorker({ schedule: [50, 50, 50], jitter: 0 });
  });
  afterAll(async () => {
    await h?.close();
    await db?.drop();
  });

  it('a receiver answering 500 twice then 200 gets it on the 3rd attempt, same webhook-id, all attempts logged', async () => {
    const r = await receiver({ responder: (_req, i) => ({ status: i < 2 ? 500 : 200 }) });
    h.registrations.urls.set('key-500', r.baseUrl);
    const input = cashIn('key-500');
    const { id } = await h.outbox.enqueue(input);
    await waitFor('delivered', async () => (await status(id)) === 'delivered');

    expect(r.requests.map((q) => q.headers['webhook-id'])).toEqual([id, id, id]);
    expect(new Set(r.requests.map((q) => q.body)).size).toBe(1);
    const attempts = await h.outbox.attempts(id);
    expect(attempts.map((a) => [a.attempt, a.statusCode, a.outcome])).toEqual([
      [1, 500, 'retry'],
      [2, 500, 'retry'],
      [3, 200, 'delivered'],
    ]);
    expect(attempts[0].error).toBe('HTTP 500');
    expect(attempts.every((a) => a.url === `${r.baseUrl}/pix` && a.latencyMs >= 0)).toBe(true);
    expect((await h.outbox.get(id))?.deliveredAt).toBeInstanceOf(Date);
    // Failed attempts are warnings (alerts at warn see a failing receiver before its schedule runs out); the delivery is info.
    const lines = h.logger.lines.filter((l) => l.includes(`webhook ${id} attempt`));
    expect(lines.map((l) => l.split(' ')[0])).toEqual(['WARN', 'WARN', 'webhook']);
    expect(lines[0]).toMatch(/^WARN webhook \S+ attempt 1 to .*: HTTP 500 in \d+ ms; next attempt at /);
    // Each line names what a customer quotes: the key and the endToEndId (never the receiver's answer).
    for (const line of lines) expect(line).toContain(` for chave key-500, endToEndId ${input.endToEndId}: HTTP `);
  });

  it('a DELETE stops what waits for a retry even when the webhook is registered again before it comes due', async () => {
    // 429 Retry-After: 1 parks the first POST; meanwhile the receiver DELETEs and PUTs the webhook again.
    const r = await receiver({ responder: (_req, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }) });
    h.registrations.urls.set('key-again', r.baseUrl);
    const parked = await h.outbox.enqueue(cashIn('key-again'));
    await waitFor('first attempt', () => r.requests.length === 1);
    h.registrations.removed.set('key-again', new Date().toISOString());
    await sleep(1500);
    expect(r.requests).toHaveLength(1);
    expect(await h.outbox.get(parked.id)).toMatchObject({ status: 'cancelled', reason: expect.stringMatching(/^the webhook of chave key-again was removed at .+, after this Pix was stored$/) });
    // A Pix stored after the registration is sent to it, at once.
    const after = await h.outbox.enqueue(cashIn('key-again'));
    await waitFor('delivered', async () => (await status(after.id)) === 'delivered');
    expect(r.requests.map((q) => q.headers['webhook-id'])).toEqual([parked.id, after.id]);
  });

  it("a webhook lookup that fails (our store away) does not use up one of the receiver's attempts: sent a second later as attempt 1", async () => {
    const r = await receiver();
    h.registrations.urls.set('key-lookup', r.baseUrl);
    const registrations = h.registrations;
    const read = registrations.urlFor.bind(registrations);
    let failures = 1;
    registrations.urlFor = async (chave: string) => {
      if (chave === 'key-lookup' && failures-- > 0) throw new Error('terminating connection due to administrator command');
      return read(chave);
    };
    try {
      const stored = Date.now();
      const input = cashIn('key-lookup');
      const { id } = await h.outbox.enqueue(input);
      await waitFor('delivered', async () => (await status(id)) === 'delivered', 5000);
      expect(r.requests).toHaveLength(1);
      expect(r.requests[0].receivedAt - stored).toBeGreaterThanOrEqual(900);
      expect((await h.outbox.attempts(id)).map((a) => [a.attempt, a.statusCode, a.outcome])).toEqual([[1, 200, 'delivered']]);
      expect(h.logger.lines.filter((l) => l.includes(`webhook ${id} for chave ${input.chave}, endToEndId ${input.endToEndId}: not sent, the webhook lookup failed (terminating connection due to administrator command); due again in 1000 ms`))).toHaveLength(1);
    } finally {
      registrations.urlFor = read;
    }
  });

  it('a receiver that is down (port closed) and then comes up gets it', async () => {
    const probe = await TestReceiver.start();
    const port = probe.port;
    await probe.close();
    h.registrations.urls.set('key-down', `http://127.0.0.1:${port}`);
    await h.stopWorkers();
    await h.startWorker({ schedule: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200], jitter: 0 });
    const { id } = await h.outbox.enqueue(cashIn('key-down'));

    const failed = await waitFor('a refused attempt', async () => (await h.outbox.attempts(id))[0]);
    expect(failed).toMatchObject({ statusCode: null, outcome: 'retry' });
    expect(failed.error).toMatch(/ECONNREFUSED/);
    expect(await status(id)).toBe('pending');

    const up = await receiver({ port });
    await waitFor('delivered', async () => (await status(id)) === 'delivered');
    expect(up.byId(id)).toHaveLength(1);
    const attempts = await h.outbox.attempts(id);
    expect(attempts.at(-1)).toMatchObject({ statusCode: 200, outcome: 'delivered' });
    expect(attempts.slice(0, -1).every((a) => /ECONNREFUSED/.test(a.error ?? ''))).toBe(true);
    await h.stopWorkers();
    await h.startWorker({ schedule: [50, 50, 50], jitter: 0 });
  });

  it('honours Retry-After: 1 (the next attempt not before 1 s) although the schedule says 50 ms', async () => {
    const r = await receiver({ responder: (_req, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }) });
    h.registrations.urls.set('key-429', r.baseUrl);
    const { id } = await h.outbox.enqueue(cashIn('key-429'));
    await waitFor('delivered', async () => (await status(id)) === 'delivered', 5000);
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1].receivedAt - r.requests[0].receivedAt).toBeGreaterThanOrEqual(1000);
    const attempts = await h.outbox.attempts(id);
    expect(attempts[1].at.getTime() - attempts[0].at.getTime()).toBeGreaterThanOrEqual(1000);
  });

  it('an HTTP-date Retry-After is honoured too, and other 4xx answers are retried', async () => {
    const r = await receiver({
      responder: (_req, i) => [{ status: 503, headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() } }, { status: 404 }, { status: 204 }][i],
    });
    h.registrations.urls.set('key-date', r.baseUrl);
    const { id } = await h.outbox.enqueue(cashIn('key-date'));
    await waitFor('delivered', async () => (await status(id)) === 'delivered', 6000);
    // HTTP dates have 1 s resolution: the wait is at least ~1 s.
    expect(r.requests[1].receivedAt - r.requests[0].receivedAt).toBeGreaterThanOrEqual(900);
    expect((await h.outbox.attempts(id)).map((a) => a.statusCode)).toEqual([503, 404, 204]);
  });

  it('a redirect is not followed and counts as a failed attempt', async () => {
    const target = await receiver();
    const r = await receiver({ responder: (_req, i) => (i === 0 ? { status: 307, headers: { location: `${target.baseUrl}/elsewhere` } } : { status: 200 }) });
    h.registrations.urls.set('key-redirect', r.baseUrl);
    const { id } = await h.outbox.enqueue(cashIn('key-redirect'));
    await waitFor('delivered', async () => (await status(id)) === 'delivered');
    expect(target.requests).toHaveLength(0);
    const [first] = await h.outbox.attempts(id);
    expect(first).toMatchObject({ statusCode: 307, outcome: 'retry' });
    expect(first.error).toMatch(/redirect not followed/);
  });

  it('after the schedule is exhausted it is kept as dead; resend delivers it with the same id', async () => {
    let healthy = false;
    const r = await receiver({ responder: () => ({ status: healthy ? 200 : 500 }) });
    h.registrations.urls.set('key-dead', r.baseUrl);
    const input = cashIn('key-dead');
    const { id } = await h.outbox.enqueue(input);
    await waitFor('dead', async () => (await status(id)) === 'dead');

    const dead = await h.outbox.get(id);
    expect(dead).toMatchObject({ status: 'dead', attemptCount: 4, lastError: 'HTTP 500' });
    expect(dead?.reason).toMatch(/exhausted after 4 attempts/);
    expect((await h.outbox.attempts(id)).map((a) => a.outcome)).toEqual(['retry', 'retry', 'retry', 'dead']);
    expect((await h.outbox.stats()).dead).toBe(1);
    await sleep(200);
    expect(r.requests).toHaveLength(4); // nothing more once dead

    healthy = true;
    const from = new Date(dead!.createdAt.getTime() - 1);
    expect(await h.outbox.resend({ ids: [id], from })).toBe(1);
    expect(await h.outbox.resend({ ids: [id] })).toBe(0); // already pending: untouched
    await waitFor('delivered', async () => (await status(id)) === 'delivered');
    expect(r.requests.map((q) => q.headers['webhook-id'])).toEqual([id, id, id, id, id]);
    const attempts = await h.outbox.attempts(id);
    expect(attempts.at(-1)).toMatchObject({ attempt: 1, statusCode: 200, outcome: 'delivered' });
    expect((await h.outbox.stats()).dead).toBe(0);

    expect(await h.outbox.resend({ endToEndIds: [input.endToEndId] })).toBe(1); // a delivered one can be resent too
    await waitFor('delivered again', () => r.requests.length === 6);
    expect(r.requests[5].headers['webhook-id']).toBe(id);
    // Each resend restarts the schedule (attempt 1 again) and the log says which resend an attempt follows.
    await waitFor('six attempts logged', async () => (await h.outbox.attempts(id)).length === 6);
    expect((await h.outbox.attempts(id)).map((a) => [a.resend, a.attempt, a.outcome])).toEqual([
      [0, 1, 'retry'],
      [0, 2, 'retry'],
      [0, 3, 'retry'],
      [0, 4, 'dead'],
      [1, 1, 'delivered'],
      [2, 1, 'delivered'],
    ]);
    await expect(h.outbox.resend({})).rejects.toThrow(/at least one/);
  });
});
