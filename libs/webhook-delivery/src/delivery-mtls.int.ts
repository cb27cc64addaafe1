import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { cashIn, Harness, waitFor } from './testing/harness';
import { generateTestPki, type TestPki } from './testing/certificates';
import { TestReceiver } from './testing/test-receiver';

describe('webhook delivery: mutual TLS towards the receiver', () => {
  let db: TestDatabase;
  let h: Harness;
  let pki: TestPki;
  let receiver: TestReceiver;

  beforeAll(async () => {
    pki = generateTestPki();
    db = await createTestDatabase('whd_mtls');
    h = await Harness.open(db.url);
    receiver = await TestReceiver.start({
      tls: { key: pki.serverKey, cert: pki.serverCert, ca: pki.ca, requestCert: true, rejectUnauthorized: true },
    });
  });
  afterEach(() => h.stopWorkers());
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
    await db?.drop();
  });

  it('a receiver requiring a client certificate accepts a worker configured with one signed by its CA', async () => {
    h.registrations.urls.set('key-mtls', `${receiver.baseUrl}/hook`);
    await h.startWorker({ tls: { cert: pki.clientCert, key: pki.clientKey, ca: pki.ca } });
    const { id } = await h.outbox.enqueue(cashIn('key-mtls'));
    await waitFor('delivered', async () => (await h.outbox.get(id))?.status === 'delivered');
    const [request] = receiver.byId(id);
    expect(request.url).toBe('/hook/pix');
    expect(request.clientCn).toBe('pix-notifier');
  });

  it('rejects a worker without a client certificate: the attempt is logged as an error and retried', async () => {
    h.registrations.urls.set('key-nocert', receiver.baseUrl);
    await h.startWorker({ tls: { ca: pki.ca }, schedule: [100, 100, 100, 100, 100, 100, 100, 100, 100, 100] });
    const { id } = await h.outbox.enqueue(cashIn('key-nocert'));
    const attempts = await waitFor('two failed attempts', async () => {
      const a = await h.outbox.attempts(id);
      return a.length >= 2 && a;
    });
    for (const a of attempts) {
      expect(a).toMatchObject({ statusCode: null, outcome: 'retry' });
      expect(a.error).toMatch(/CERTIFICATE_REQUIRED|ECONNRESET|socket hang up/i);
    }
    expect(receiver.byId(id)).toHaveLength(0);
    expect((await h.outbox.get(id))?.status).toBe('pending');

    // The same notification, once a properly configured worker takes over, arrives.
    await h.stopWorkers();
    await h.startWorker({ tls: { cert: pki.clientCert, key: pki.clientKey, ca: pki.ca }, schedule: [100, 100, 100, 100, 100, 100, 100, 100, 100, 100] });
    await waitFor('delivered', async () => (await h.outbox.get(id))?.status === 'delivered');
    expect(receiver.byId(id)).toHaveLength(1);
  });

  it('a worker that does not trust the receiver certificate refuses to send', async () => {
    h.registrations.urls.set('key-untrusted', receiver.baseUrl);
    await h.startWorker({ tls: { cert: pki.clientCert, key: pki.clientKey }, schedule: [100, 100, 100] });
    const { id } = await h.outbox.enqueue(cashIn('key-untrusted'));
    const [first] = await waitFor('a failed attempt', async () => (await h.outbox.attempts(id)).length >= 1 && h.outbox.attempts(id));
    expect(first.error).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|unable to (get|verify)/i);
    expect(receiver.byId(id)).toHaveLength(0);
  });
});
