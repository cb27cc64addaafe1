import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createResponseValidator, createTestDatabase, type TestDatabase } from '@pix/testing';
import { notificationIdFor } from '@pix/webhook-delivery';
import { newTxid } from '../support/api-harness';
import { freePort, startApiProcess, type ApiProcess } from '../support/api-process';
import { cashIn, contractClient, officialPix as official, PRODUCTION_KEY as KEY_A, sleep } from '../support/cash-in-fixtures';
import { DeadLetterReader, kafkaBrokers, lockKafka, PspCore } from '../support/kafka-client';
import { startNotifierProcess, stopChild, type NotifierProcess } from '../support/notifier-process';
import { Receiver, selfSignedCertificate, type Received } from '../support/receiver';

// Production mode: the API and the notifier as separate processes, cash-ins published to a real
// Kafka broker as a PSP's core would, webhooks delivered over https to a self-signed receiver.
jest.setTimeout(90_000);

const BROKERS = kafkaBrokers();
const KEY_B = '+5511999998888';
const validator = createResponseValidator();

if (!BROKERS) {
  describe('cash-in over Kafka (production mode)', () => {
    console.warn('cash-in-kafka.int.ts NOT RUN: KAFKA_BROKERS is not set (npm test sets it; or start tools/kafka/kafka.js and export it)');
    it.skip('cash-in over Kafka NOT RUN: no KAFKA_BROKERS set', () => undefined);
  });
} else {
  describe('cash-in over Kafka (production mode)', () => {
    let unlock: (() => void) | undefined;
    let tls: ReturnType<typeof selfSignedCertificate> | undefined;
    let receiver: Receiver | undefined;
    let db: TestDatabase | undefined;
    let api: ApiProcess | undefined;
    let notifier: NotifierProcess | undefined;
    let psp: PspCore | undefined;
    let dlt: DeadLetterReader | undefined;

    let client: ReturnType<typeof contractClient>;
    const http = (method: string, path: string, body?: unknown) => client.request(method, path, body);
    const charge = (chave = KEY_A) => client.charge(chave);
    const concluded = (txid: string) => client.concluded(txid);
    const deliveries = async (e2e: string, n: number, timeoutMs = 30_000): Promise<Received[]> => {
      await receiver!.waitUntil(() => receiver!.forEndToEndId(e2e).length >= n, timeoutMs, `${n} request(s) for ${e2e}`);
      return receiver!.forEndToEndId(e2e);
    };

    beforeAll(async () => {
      unlock = await lockKafka(BROKERS, 600_000);
      tls = selfSignedCertificate();
      receiver = await Receiver.start({ tls });
      db = await createTestDatabase('cashin_kafka');
      api = await startApiProcess(db.url, await freePort(), { KAFKA_BROKERS: BROKERS.join(',') }, [KEY_A, KEY_B]);
      client = contractClient(api.base, api.headers());
      const env = { DATABASE_URL: db.url, KAFKA_BROKERS: BROKERS.join(','), NOTIFIER_PORT: String(await freePort()), WEBHOOK_CA: tls.caPath };
      // A per-key ceiling of 2 (the default is 8 since lanes adapt): the slow-receiver case checks the cap holds.
      notifier = await startNotifierProcess({ ...env, WEBHOOK_RETRY_SCHEDULE: '200ms,200ms,500ms', WEBHOOK_TIMEOUT: '10s', WEBHOOK_MAX_IN_FLIGHT_PER_KEY: '2' });
      psp = await PspCore.connect(BROKERS);
      dlt = await DeadLetterReader.start(BROKERS);
      expect((await http('PUT', `/webhook/${KEY_A}`, { webhookUrl: `${receiver.url}/a` })).status).toBe(200);
      expect((await http('PUT', `/webhook/${encodeURIComponent(KEY_B)}`, { webhookUrl: `${receiver.url}/b` })).status).toBe(200);
    }, 720_000);

    afterAll(async () => {
      const steps = [() => dlt?.stop(), () => psp?.disconnect(), () => notifier?.stop(), () => stopChild(api?.child), () => receiver?.close(), () => db?.drop()];
      for (const step of steps) await Promise.resolve(step()).catch((e) => console.error(e));
      tls?.remove();
      unlock?.();
    }, 60_000);

    it("names each app's connections (application_name), so an operator's pg_stat_activity says which app a backend serves", async () => {
      const admin = new Client({ connectionString: db!.url });
      await admin.connect();
      try {
        const { rows } = await admin.query<{ app: string }>(`SELECT DISTINCT application_name AS app FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
        expect(rows.map((r) => r.app).sort()).toEqual(['pix-api', 'pix-notifier']);
      } finally {
        await admin.end();
      }
    });

    it('settles the charge and delivers the exact official Pix to {webhookUrl}/pix', async () => {
      const txid = await charge();
      const message = cashIn(txid);
      // The PSP core names its request: the API's settlement line carries that id (ADR 17).
      const cid = `psp-${randomUUID()}`;
      await psp!.publish(message, { 'x-correlation-id': cid });
      const cobv = await concluded(txid);
      expect(cobv.pix).toEqual([official(message)]);
      const settled = api!.output().split('\n').filter((line) => line.includes(`${txid} CONCLUIDA`));
      expect(settled).toHaveLength(1);
      expect(JSON.parse(settled[0])).toMatchObject({ correlationId: cid, context: 'Settlement' });
      expect((await http('GET', `/pix/${message.endToEndId}`)).body).toEqual(official(message));
      const [request] = await deliveries(message.endToEndId, 1);
      expect({ method: request.method, path: request.path, type: request.headers['content-type'], id: request.headers['webhook-id'] }).toEqual({
        method: 'POST',
        path: '/a/pix',
        type: 'application/json',
        id: notificationIdFor(message.endToEndId),
      });
      expect(request.json).toEqual({ pix: [official(message)] });
      expect(validator.validateSchema('Pix', request.json.pix[0]).errors).toEqual([]);
      // And the notifier's delivery line carries it too, taken from the message into the outbox (ADR 17).
      const delivered = () => notifier!.output().split('\n').filter((line) => line.includes(`webhook ${notificationIdFor(message.endToEndId)} attempt 1 `));
      for (const deadline = Date.now() + 5000; delivered().length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
      expect(delivered().map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ correlationId: cid, context: 'Notifier', msg: expect.stringMatching(/; delivered$/) })]);
    });

    it('stores, serves and notifies a horario sent with an offset in UTC with milliseconds, the same in settlement and the webhook', async () => {
      const paidAt = Date.now() - 60_000;
      // -03:00 wall time with one fraction digit, as a PSP core in Brasília might send it.
      const sent = `${new Date(paidAt - 3 * 3_600_000).toISOString().slice(0, 21)}-03:00`;
      const utc = new Date(Math.floor(paidAt / 100) * 100).toISOString();
      const message = { ...cashIn(await charge()), horario: sent };
      await psp!.publish(message);
      const expected = official({ ...message, horario: utc });
      expect((await concluded(message.txid!)).pix).toEqual([expected]);
      expect((await http('GET', `/pix/${message.endToEndId}`)).body).toEqual(expected);
      const [request] = await deliveries(message.endToEndId, 1);
      expect(request.json).toEqual({ pix: [expected] });
    });

    it('concludes a charge its receiver removed after the Pix was paid; a Pix paid after the removal leaves it removed', async () => {
      // Settlement records the Pix, then concludes the charge: a PATCH removing it could land in
      // between and the charge ended removed without its Pix (hostile-input audit). A consumer
      // running behind is the same case, made here on purpose: the Pix is published after the removal.
      const remove = async (txid: string) => expect((await http('PATCH', `/cobv/${txid}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).status).toBe(200);
      const [paidFirst, paidLater] = [await charge(), await charge()];
      const before = { ...cashIn(paidFirst), horario: new Date(Date.now() - 1000).toISOString() };
      await remove(paidFirst);
      await remove(paidLater);
      const after = cashIn(paidLater);
      await psp!.publish(before);
      await psp!.publish(after);
      const cobv = await concluded(paidFirst);
      expect(cobv).toMatchObject({ status: 'CONCLUIDA', revisao: 1, pix: [official(before)] });
      // Published after `before` on the same key (one partition): settled once `before` is.
      for (const deadline = Date.now() + 10_000; (await http('GET', `/pix/${after.endToEndId}`)).status !== 200 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
      expect((await http('GET', `/pix/${after.endToEndId}`)).body).toEqual(official(after));
      expect((await http('GET', `/cobv/${paidLater}`)).body).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
      expect((await http('GET', `/cobv/${paidLater}`)).body.pix).toBeUndefined();
    });

    it('notifies a cash-in published twice once (one notification, one delivery)', async () => {
      const message = cashIn(await charge());
      await psp!.publish(message);
      await psp!.publish(message);
      // Same key, same partition: once the sentinel published after both is delivered, both copies were consumed.
      const sentinel = cashIn(await charge());
      await psp!.publish(sentinel);
      await deliveries(sentinel.endToEndId, 1);
      await sleep(1500);
      const requests = receiver!.forEndToEndId(message.endToEndId);
      expect(requests.map((r) => r.headers['webhook-id'])).toEqual([notificationIdFor(message.endToEndId)]);
      const n = await notifier!.get(`/notifier/notifications/${notificationIdFor(message.endToEndId)}`);
      expect(n.body).toMatchObject({ status: 'delivered', attemptCount: 1, attempts: [expect.objectContaining({ statusCode: 200, outcome: 'delivered' })] });
      expect(n.body.attempts).toHaveLength(1);
      expect((await concluded(message.txid!)).pix).toEqual([official(message)]);
    });

    it('dead-letters invalid messages with a dlt-reason header and keeps consuming after them', async () => {
      const txid = newTxid('dl');
      const badId = JSON.stringify({ ...cashIn(txid), endToEndId: 'curto' });
      const notJson = `not json ${randomUUID()}`;
      await psp!.publishRaw(KEY_A, badId);
      await psp!.publishRaw(KEY_A, notJson);
      // Both consumer groups validate every message: each dead-letters each invalid one.
      const consumers = ['pix-api-settlement', 'pix-notifier'];
      const first = await dlt!.waitFor((r) => r.value === badId, 2, 30_000);
      expect(first.map((r) => [r.key, r.headers['dlt-reason'], r.headers['dlt-consumer']]).sort()).toEqual(consumers.map((c) => [KEY_A, 'endToEndId must be 32 letters and digits', c]));
      const second = await dlt!.waitFor((r) => r.value === notJson, 2, 30_000);
      expect(second.map((r) => [r.key, r.headers['dlt-reason'], r.headers['dlt-consumer']]).sort()).toEqual(consumers.map((c) => [KEY_A, 'not JSON', c]));
      expect(first.every((r) => /^pix\.cash-in\.v1\/\d+\/\d+$/.test(r.headers['dlt-source']))).toBe(true);
      // Unstorable ones too: each passed once and then failed PostgreSQL at every retry, holding
      // back every partition of both consumers behind it.
      const unstorable = [
        JSON.stringify({ ...cashIn(txid), horario: '2026-02-30T10:00:00Z' }),
        JSON.stringify({ ...cashIn(txid), infoPagador: `NUL \u0000 ${randomUUID()}` }),
        JSON.stringify({ ...cashIn(txid), chave: `x\u0000${randomUUID()}` }),
      ];
      for (const value of unstorable) await psp!.publishRaw(KEY_A, value);
      for (const value of unstorable) expect((await dlt!.waitFor((r) => r.value === value, 2, 30_000)).map((r) => r.headers['dlt-consumer']).sort()).toEqual(consumers);

      const valid = cashIn(await charge());
      await psp!.publish(valid);
      expect((await concluded(valid.txid!)).status).toBe('CONCLUIDA');
      expect((await deliveries(valid.endToEndId, 1))[0].json).toEqual({ pix: [official(valid)] });
      await sleep(500);
      expect((await dlt!.waitFor((r) => r.value === badId, 2, 0)).length).toBe(2);
    });

    it('dead-letters a horario after its record was published, both groups for the same reason (the record timestamp judges)', async () => {
      const future = JSON.stringify({ ...cashIn(newTxid('fh')), horario: '2099-01-01T00:00:00Z' });
      await psp!.publishRaw(KEY_A, future);
      const letters = await dlt!.waitFor((r) => r.value === future, 2, 30_000);
      expect(letters.map((r) => r.headers['dlt-consumer']).sort()).toEqual(['pix-api-settlement', 'pix-notifier']);
      expect(new Set(letters.map((r) => r.headers['dlt-reason'])).size).toBe(1);
      expect(letters[0].headers['dlt-reason']).toMatch(/^horario 2099-01-01T00:00:00\.000Z is after the message was published \(.+\) by more than 5 minutes of clock skew$/);
    });

    it('retries a receiver answering 500 twice, then 200: three requests with the same webhook-id', async () => {
      const message = cashIn(await charge());
      receiver!.sequence((r) => r.json?.pix?.[0]?.endToEndId === message.endToEndId, [500, 500]);
      await psp!.publish(message);
      const requests = await deliveries(message.endToEndId, 3);
      await sleep(1500);
      const id = notificationIdFor(message.endToEndId);
      expect(receiver!.forEndToEndId(message.endToEndId).map((r) => [r.headers['webhook-id'], r.status, r.body])).toEqual(
        [500, 500, 200].map((status) => [id, status, JSON.stringify({ pix: [official(message)] })]),
      );
      const n = await notifier!.get(`/notifier/notifications/${id}`);
      expect(n.body.attempts.map((a: any) => [a.attempt, a.statusCode, a.outcome])).toEqual([[1, 500, 'retry'], [2, 500, 'retry'], [3, 200, 'delivered']]);
      expect(requests[1].receivedAt - requests[0].receivedAt).toBeGreaterThanOrEqual(150); // the 200 ms schedule, ±20 %
    });

    it('a DELETE stops a retry waiting out a Retry-After even when the webhook is registered again before it comes due', async () => {
      const message = cashIn(await charge());
      const previous = receiver!.responder;
      let parked = false;
      receiver!.responder = (r, i) =>
        !parked && r.json?.pix?.[0]?.endToEndId === message.endToEndId ? ((parked = true), { status: 503, headers: { 'retry-after': '2' } }) : previous(r, i);
      try {
        await psp!.publish(message);
        await deliveries(message.endToEndId, 1);
        expect((await http('DELETE', `/webhook/${KEY_A}`)).status).toBe(204);
        expect((await http('PUT', `/webhook/${KEY_A}`, { webhookUrl: `${receiver!.url}/a` })).status).toBe(200);
        await sleep(3000);
        expect(receiver!.forEndToEndId(message.endToEndId)).toHaveLength(1);
        const n = await notifier!.get(`/notifier/notifications/${notificationIdFor(message.endToEndId)}`);
        expect(n.body).toMatchObject({ status: 'cancelled', reason: expect.stringContaining('was removed at') });
        // A Pix stored under the new registration reaches it.
        const next = cashIn(await charge());
        await psp!.publish(next);
        expect(await deliveries(next.endToEndId, 1)).toHaveLength(1);
      } finally {
        receiver!.responder = previous;
      }
    });

    it('a slow receiver for key A does not delay notifications for key B', async () => {
      const slow = new Set<string>();
      const previous = receiver!.responder;
      receiver!.responder = (r, i) => (slow.has(r.json?.pix?.[0]?.endToEndId) ? { status: 200, delayMs: 4000 } : previous(r, i));
      try {
        const forA = await Promise.all([1, 2, 3].map(async () => cashIn(await charge(KEY_A))));
        forA.forEach((m) => slow.add(m.endToEndId));
        const forB = cashIn(await charge(KEY_B), KEY_B);
        for (const m of forA) await psp!.publish(m);
        await psp!.publish(forB);
        const [b] = await deliveries(forB.endToEndId, 1, 15_000);
        expect(b.path).toBe('/b/pix');
        const aRequests = () => forA.flatMap((m) => receiver!.forEndToEndId(m.endToEndId));
        // B arrived while key A's first requests were still waiting for their answers.
        expect(aRequests().length).toBeGreaterThanOrEqual(1);
        expect(aRequests().every((r) => r.endedAt === undefined || r.endedAt > b.receivedAt)).toBe(true);
        expect(b.endedAt! - b.receivedAt).toBeLessThan(1000);
        // Every A is delivered in the end, at most two at a time (the per-key cap).
        await receiver!.waitUntil(() => forA.every((m) => receiver!.forEndToEndId(m.endToEndId).some((r) => r.status === 200)), 30_000, 'all of key A');
        // Distinct requests: a batched POST carries several of A's Pix and counts once.
        const a = [...new Set(aRequests())];
        const open = (t: number) => a.filter((r) => r.receivedAt <= t && (r.endedAt ?? Infinity) > t).length;
        expect(Math.max(...a.map((r) => open(r.receivedAt)))).toBeLessThanOrEqual(2);
        expect(forA.map((m) => receiver!.forEndToEndId(m.endToEndId).length)).toEqual([1, 1, 1]);
      } finally {
        receiver!.responder = previous;
      }
    });
  });
}
