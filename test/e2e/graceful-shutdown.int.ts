import { randomUUID } from 'node:crypto';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { notificationIdFor } from '@pix/webhook-delivery';
import { freePort, startApiProcess, type ApiProcess } from '../support/api-process';
import { cashIn, contractClient } from '../support/cash-in-fixtures';
import { kafkaBrokers, lockKafka, PspCore } from '../support/kafka-client';
import { startNotifierProcess, type NotifierProcess } from '../support/notifier-process';
import { Receiver, selfSignedCertificate } from '../support/receiver';

// SIGTERM drains: a webhook request in flight finishes and is recorded before the notifier
// exits 0; when the drain time runs out it exits 1 and the notification, still stored under
// its lease, is delivered by another notifier with the same webhook-id. Nothing is lost.
jest.setTimeout(180_000);

const BROKERS = kafkaBrokers();
const KEY = randomUUID();

if (!BROKERS) {
  describe('graceful shutdown', () => {
    it.skip('graceful shutdown NOT RUN: no KAFKA_BROKERS set', () => undefined);
  });
} else {
  describe('graceful shutdown of the notifier', () => {
    let unlock: (() => void) | undefined;
    let receiver: Receiver;
    let db: TestDatabase;
    let api: ApiProcess;
    let psp: PspCore;
    const notifiers: NotifierProcess[] = [];
    let slowMs = 1500;
    // Production webhooks are https: the receiver has a certificate the notifier is told to trust.
    const tls = selfSignedCertificate();

    const notifier = async (env: Record<string, string> = {}) => {
      const n = await startNotifierProcess({
        DATABASE_URL: db.url,
        KAFKA_BROKERS: BROKERS.join(','),
        NOTIFIER_PORT: String(await freePort()),
        NOTIFIER_GROUP_ID: `drain-${randomUUID()}`,
        WEBHOOK_TIMEOUT: '5s',
        WEBHOOK_CA: tls.caPath,
        ...env,
      });
      notifiers.push(n);
      return n;
    };
    const exitOf = (n: NotifierProcess) => new Promise<number | null>((resolve) => (n.child.exitCode !== null ? resolve(n.child.exitCode) : n.child.once('exit', (code) => resolve(code))));
    /** Publishes a cash-in for a new charge and resolves once the receiver holds its request open. */
    const inFlight = async () => {
      const message = cashIn(await contractClient(api.base, api.headers()).charge(KEY, '10.00'), KEY, '10.00');
      await psp.publish(message);
      await receiver.waitUntil(() => receiver.forEndToEndId(message.endToEndId).length > 0, 30_000, `a request for ${message.endToEndId}`);
      return message;
    };

    beforeAll(async () => {
      unlock = await lockKafka(BROKERS, 300_000);
      receiver = await Receiver.start({ tls, responder: () => ({ status: 200, delayMs: slowMs }) });
      db = await createTestDatabase('graceful_shutdown');
      api = await startApiProcess(db.url, await freePort(), { KAFKA_BROKERS: BROKERS.join(',') }, [KEY]);
      expect((await contractClient(api.base, api.headers()).request('PUT', `/webhook/${KEY}`, { webhookUrl: `${receiver.url}/hook` })).status).toBe(200);
      psp = await PspCore.connect(BROKERS);
    }, 240_000);
    afterAll(async () => {
      for (const n of notifiers) await n.kill();
      await psp?.disconnect();
      await api?.kill('SIGTERM');
      await receiver?.close();
      await db?.drop();
      unlock?.();
    });

    it('SIGTERM lets the webhook request in flight finish and be recorded, then exits 0', async () => {
      slowMs = 1500;
      const n = await notifier({ SHUTDOWN_DRAIN_MS: '10000' });
      const message = await inFlight();
      const exited = exitOf(n);
      n.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const requests = receiver.forEndToEndId(message.endToEndId);
      expect(requests.map((r) => r.status)).toEqual([200]);
      const pool = testPool(db.url, 1);
      try {
        const { rows } = await pool.query<{ status: string }>('SELECT status FROM webhook_outbox WHERE id = $1', [notificationIdFor(message.endToEndId)]);
        expect(rows).toEqual([{ status: 'delivered' }]);
      } finally {
        await pool.end();
      }
      expect(n.output()).toMatch(/stopped cleanly in \d+ ms/);
    });

    it('with SHUTDOWN_DELAY it first answers readiness 503 while its operator endpoints are still served, then exits 0', async () => {
      const n = await notifier({ SHUTDOWN_DELAY: '1500ms' });
      expect((await n.get('/health/ready')).status).toBe(200);
      const exited = exitOf(n);
      const signalled = Date.now();
      n.child.kill('SIGTERM');
      let ready = await n.get('/health/ready');
      for (; ready.status === 200 && Date.now() < signalled + 700; await new Promise((r) => setTimeout(r, 20))) ready = await n.get('/health/ready');
      expect(ready).toEqual({ status: 503, body: { status: 'shutting down' } });
      expect((await n.get('/health/live')).status).toBe(200);
      expect((await n.get('/notifier/stats')).status).toBe(200);
      expect(Date.now() - signalled).toBeLessThan(1500);
      expect(await exited).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(1500);
    });

    it('when the drain time runs out it exits 1, and another notifier delivers the notification with the same id', async () => {
      slowMs = 4000;
      const n = await notifier({ SHUTDOWN_DRAIN_MS: '300' });
      const message = await inFlight();
      const exited = exitOf(n);
      const started = Date.now();
      n.child.kill('SIGTERM');
      expect(await exited).toBe(1);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(n.output()).toMatch(/drain time of 300 ms ran out/);
      slowMs = 0;
      await notifier();
      // The first lease (timeout 5 s + margin) must end before anyone sends it again.
      await receiver.waitUntil(() => receiver.forEndToEndId(message.endToEndId).some((r) => r.status === 200 && r !== receiver.forEndToEndId(message.endToEndId)[0]), 60_000, 'the second delivery');
      expect(new Set(receiver.forEndToEndId(message.endToEndId).map((r) => r.headers['webhook-id']))).toEqual(new Set([notificationIdFor(message.endToEndId)]));
    });
  });
}
