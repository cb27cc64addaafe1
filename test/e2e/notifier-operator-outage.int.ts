import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { freePort } from '../support/api-process';
import { kafkaBrokers } from '../support/kafka-client';
import { startNotifierProcess, type NotifierProcess } from '../support/notifier-process';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

// A database restart is routine: the operator endpoints answer as the API does while it is away
// (503 ServicoIndisponivel, Retry-After: 2, no stack in the log) and 200 again once it is back.
jest.setTimeout(90_000);

const DEADLINE_MS = 1500;

describe('notifier operator endpoints while the database is away', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let notifier: NotifierProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('notifier_ops_outage');
    const brokers = kafkaBrokers();
    if (!brokers) throw new Error('KAFKA_BROKERS is not set: run through `npm test`, which provisions a broker');
    const url = new URL(db.url);
    proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
    url.port = String(proxy.port);
    notifier = await startNotifierProcess({ DATABASE_URL: url.toString(), KAFKA_BROKERS: brokers.join(','), NOTIFIER_PORT: String(await freePort()), NOTIFIER_GROUP_ID: 'ops-outage', DATABASE_QUERY_TIMEOUT_MS: String(DEADLINE_MS) }, false);
  });
  afterAll(async () => {
    await notifier?.stop();
    await proxy?.close();
    await db?.drop();
  });

  const stats = async () => {
    const r = await fetch(`${notifier!.base}/notifier/stats`, { headers: { authorization: `Bearer test-operator-token-0123456789`, 'x-correlation-id': 'outage-1' } });
    return { status: r.status, retryAfter: r.headers.get('retry-after'), type: r.headers.get('content-type'), body: (await r.json()) as any };
  };

  it('answers 503 ServicoIndisponivel with Retry-After while the database is gone, 200 once it is back', async () => {
    expect((await stats()).status).toBe(200);
    await proxy.cut();
    for (const list of ['/notifier/stats', '/notifier/notifications']) {
      const r = await fetch(`${notifier!.base}${list}`, { headers: { authorization: `Bearer test-operator-token-0123456789` } });
      expect([list, r.status, r.headers.get('retry-after')]).toEqual([list, 503, '2']);
    }
    const down = await stats();
    expect(down).toEqual({
      status: 503,
      retryAfter: '2',
      type: expect.stringMatching(/^application\/problem\+json/),
      body: expect.objectContaining({ type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel', status: 503, correlationId: 'outage-1' }),
    });
    // Expected, not a bug: no error line with a stack for it.
    expect(notifier!.output()).not.toMatch(/GET \/notifier\/stats failed/);
    await proxy.restore();
    let back = await stats();
    for (const deadline = Date.now() + 15_000; back.status !== 200 && Date.now() < deadline; back = await stats()) await new Promise((r) => setTimeout(r, 200));
    expect([back.status, back.body]).toEqual([200, expect.objectContaining({ dead: 0 })]);
  });

  // Contract audit (2026-11-28): a frozen database (or a black-holed network) held requests with
  // no answer at all, the TCP connection still open; every statement now has a deadline.
  it('answers 503 within the statement deadline while the database is frozen, 200 once it answers', async () => {
    expect((await stats()).status).toBe(200);
    proxy.freeze();
    const started = Date.now();
    const frozen = await stats().finally(() => proxy.thaw());
    expect([frozen.status, frozen.retryAfter, frozen.body.type]).toEqual([503, '2', 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel']);
    // The deadline, or a new connection's own bound (5 s) for a read that found none idle.
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 5000 + 3000);
    let back = await stats();
    for (const deadline = Date.now() + 15_000; back.status !== 200 && Date.now() < deadline; back = await stats()) await new Promise((r) => setTimeout(r, 200));
    expect(back.status).toBe(200);
  });
});
