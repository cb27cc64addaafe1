import { createHmac, randomUUID } from 'node:crypto';
import type { PixRecebidoMessage } from '@pix/contracts';
import { notificationIdFor } from '@pix/webhook-delivery';
import { cashIn, contractClient, inPool, officialPix, sleep } from '../support/cash-in-fixtures';
import { kafkaBrokers, type PspCore } from '../support/kafka-client';
import { KafkaStack } from '../support/kafka-stack';
import type { NotifierProcess } from '../support/notifier-process';
import type { Received, Receiver } from '../support/receiver';

// Batched callbacks (issue 13) end to end: the API and the notifier as production-mode processes,
// cash-ins published to a real Kafka broker, webhooks over https. The library's own tests
// (libs/webhook-delivery/src/delivery-batching.int.ts) drive the outbox directly; these go
// through Kafka, the intake and the compiled notifier. cash-in-kafka-crash.int.ts already kills
// a notifier mid-stream; the kill here lands on a batched POST in flight and accounts for every
// endToEndId in both directions.
jest.setTimeout(300_000);

const BROKERS = kafkaBrokers();
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const MAX_BATCH = 20;
// One key (and URL path) per case, so no case sees another's POSTs.
const PATHS = ['idle', 'load', 'retry', 'big', 'c0', 'c1', 'c2', 'c3'] as const;
const KEY = Object.fromEntries(PATHS.map((p) => [p, randomUUID()])) as Record<(typeof PATHS)[number], string>;
const CRASH_KEYS = [KEY.c0, KEY.c1, KEY.c2, KEY.c3];

type Pix = { endToEndId: string };
const e2eIds = (r: Received): string[] => (r.json?.pix ?? []).map((p: Pix) => p.endToEndId);
const under = (path: string) => (r: Received) => r.path === `/${path}/pix`;

if (!BROKERS) {
  describe('batched webhook callbacks over Kafka (production mode)', () => {
    console.warn('webhook-batching-kafka.int.ts NOT RUN: KAFKA_BROKERS is not set (npm test sets it; or start tools/kafka/kafka.js and export it)');
    it.skip('batched webhook callbacks over Kafka NOT RUN: no KAFKA_BROKERS set', () => undefined);
  });
} else {
  describe('batched webhook callbacks over Kafka (production mode)', () => {
    let stack: KafkaStack | undefined;
    let receiver: Receiver;
    let psp: PspCore | undefined;
    let client: ReturnType<typeof contractClient>;

    /** A production-mode notifier on the shared consumer group (the previous one is stopped first). */
    const startNotifier = async (env: Record<string, string> = {}) => {
      for (const n of stack!.notifiers) await n.stop();
      return stack!.startNotifier({ WEBHOOK_SIGNING_SECRET: SECRET, WEBHOOK_MAX_BATCH: String(MAX_BATCH), WEBHOOK_RETRY_SCHEDULE: '200ms,500ms,1s,2s,5s,10s,10s', ...env });
    };
    /** n charges (HTTP, 8 at a time) to `keys` in turn, one cash-in each. */
    const cashIns = (n: number, keys: string[]): Promise<PixRecebidoMessage[]> =>
      inPool(Array.from({ length: n }, (_, i) => keys[i % keys.length]), 8, async (chave) => cashIn(await client.charge(chave, '10.00'), chave, '10.00'));
    const accepted = (m: PixRecebidoMessage) => receiver.forEndToEndId(m.endToEndId).filter((r) => r.status === 200);
    const allAccepted = (batch: PixRecebidoMessage[]) => () => batch.every((m) => accepted(m).length > 0);
    const idle = async (n: NotifierProcess, timeoutMs: number) => {
      for (const deadline = Date.now() + timeoutMs; ; await sleep(250)) {
        const stats = (await n.get('/notifier/stats')).body;
        if (stats.pending === 0 && stats.inFlight === 0) return stats;
        if (Date.now() > deadline) throw new Error(`notifications still pending after ${timeoutMs} ms: ${JSON.stringify(stats)}`);
      }
    };
    /** Standard Webhooks: HMAC-SHA256 over `id.timestamp.body`, the whole (batched) body. */
    const signatureOk = (r: Received) => {
      const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
      const mac = createHmac('sha256', key).update(`${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${r.body}`).digest('base64');
      return r.headers['webhook-signature'] === `v1,${mac}`;
    };

    beforeAll(async () => {
      stack = await KafkaStack.open(BROKERS, 'whbatch_kafka', Object.fromEntries(PATHS.map((p) => [KEY[p], p])));
      ({ receiver, psp, client } = stack);
    }, 720_000);

    afterAll(() => stack?.close(), 120_000);

    it('idle: each cash-in goes at once, alone, under its own id', async () => {
      await startNotifier();
      for (const m of await cashIns(3, [KEY.idle])) {
        await psp!.publish(m);
        await receiver.waitUntil(() => accepted(m).length === 1, 30_000, `the POST for ${m.endToEndId}`);
        const [r] = receiver.forEndToEndId(m.endToEndId);
        expect([r.path, r.headers['webhook-id'], r.body, signatureOk(r)]).toEqual(['/idle/pix', notificationIdFor(m.endToEndId), JSON.stringify({ pix: [officialPix(m)] }), true]);
      }
      expect(receiver.requests.filter(under('idle'))).toHaveLength(3);
    });

    it('under load: POSTs carry several Pix (at most WEBHOOK_MAX_BATCH), each Pix once, signed over the whole body', async () => {
      const notifier = stack!.notifiers.at(-1)!;
      const batch = await cashIns(300, [KEY.load]);
      receiver.responder = (r) => ({ status: 200, delayMs: under('load')(r) ? 50 : 0 });
      await psp!.publishAll(batch);
      await receiver.waitUntil(allAccepted(batch), 120_000, 'all 300 cash-ins delivered');
      await idle(notifier, 30_000);
      const posts = receiver.requests.filter(under('load'));
      const sizes = posts.map((r) => e2eIds(r).length);
      expect(Math.max(...sizes)).toBeGreaterThan(1);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_BATCH);
      expect(posts.flatMap(e2eIds).sort()).toEqual(batch.map((m) => m.endToEndId).sort()); // each exactly once
      expect(posts.filter((r) => !signatureOk(r))).toEqual([]);
      const byId = new Map(batch.map((m) => [m.endToEndId, JSON.parse(JSON.stringify(officialPix(m)))]));
      for (const r of posts) {
        expect(r.json.pix).toEqual(e2eIds(r).map((id) => byId.get(id)));
        // A lone Pix keeps its own id; a batch has an id of its own, named in each member's attempt log.
        if (e2eIds(r).length === 1) expect(r.headers['webhook-id']).toBe(notificationIdFor(e2eIds(r)[0]));
        else expect(e2eIds(r).map(notificationIdFor)).not.toContain(r.headers['webhook-id']);
      }
      const big = posts.find((r) => e2eIds(r).length > 1)!;
      const log = (await notifier.get(`/notifier/notifications/${notificationIdFor(e2eIds(big)[0])}`)).body;
      expect(log.attempts.map((a: any) => [a.attempt, a.statusCode, a.outcome, a.deliveryId, a.batchSize])).toEqual([[1, 200, 'delivered', big.headers['webhook-id'], e2eIds(big).length]]);
      console.log(`under load: 300 Pix in ${posts.length} POSTs (sizes ${[...new Set(sizes)].sort((a, b) => a - b).join(', ')})`);
    });

    it('a failing batch is retried whole: same webhook-id, same bytes, same items (500, then 200)', async () => {
      const notifier = stack!.notifiers.at(-1)!;
      const batch = await cashIns(12, [KEY.retry]);
      let failed: string | undefined;
      // Every answer takes 300 ms, so what arrives meanwhile waits and rides one POST; the first
      // POST carrying several Pix is answered 500 once.
      receiver.responder = (r) => {
        if (!under('retry')(r)) return { status: 200 };
        if (failed === undefined && e2eIds(r).length > 1) {
          failed = r.headers['webhook-id'] as string;
          return { status: 500, delayMs: 300 };
        }
        return { status: 200, delayMs: 300 };
      };
      await psp!.publishAll(batch);
      await receiver.waitUntil(allAccepted(batch), 60_000, 'all 12 cash-ins delivered');
      await idle(notifier, 30_000);
      expect(failed).toBeDefined();
      const tries = receiver.requests.filter((r) => r.headers['webhook-id'] === failed);
      expect(tries.map((r) => r.status)).toEqual([500, 200]);
      expect(tries[1].body).toBe(tries[0].body);
      expect(tries[1].headers['webhook-timestamp']).not.toBe(undefined);
      expect(tries.every(signatureOk)).toBe(true);
      // Its Pix went in no other POST, and every member's log shows the same two attempts of that POST.
      const members = e2eIds(tries[0]);
      expect(members.map((e) => receiver.forEndToEndId(e).map((r) => r.headers['webhook-id']))).toEqual(members.map(() => [failed, failed]));
      for (const e of members) {
        const log = (await notifier.get(`/notifier/notifications/${notificationIdFor(e)}`)).body;
        expect(log.attempts.map((a: any) => [a.attempt, a.statusCode, a.outcome, a.deliveryId, a.batchSize])).toEqual([
          [1, 500, 'retry', failed, members.length],
          [2, 200, 'delivered', failed, members.length],
        ]);
      }
      expect(receiver.requests.filter(under('retry')).flatMap((r) => (r.status === 200 ? e2eIds(r) : [])).sort()).toEqual(batch.map((m) => m.endToEndId).sort());
    });

    it('a receiver answering 413 to more than 3 Pix gets smaller batches, and everything', async () => {
      const notifier = await startNotifier({ WEBHOOK_MAX_BATCH: '50' });
      // 200 ms per answer lets a backlog build, so the first batches are big.
      receiver.responder = (r) => (under('big')(r) ? { status: e2eIds(r).length > 3 ? 413 : 200, delayMs: 200 } : { status: 200 });
      const first = await cashIns(60, [KEY.big]);
      await psp!.publishAll(first);
      await receiver.waitUntil(allAccepted(first), 90_000, 'all 60 cash-ins accepted');
      await idle(notifier, 30_000);
      const posts = receiver.requests.filter(under('big'));
      const refused = posts.filter((r) => r.status === 413);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.every((r) => e2eIds(r).length > 3)).toBe(true);
      // Each Pix accepted exactly once; a refused batch's Pix came back in smaller POSTs under new ids.
      expect(posts.flatMap((r) => (r.status === 200 ? e2eIds(r) : [])).sort()).toEqual(first.map((m) => m.endToEndId).sort());
      const refusedIds = new Set(refused.map((r) => r.headers['webhook-id']));
      expect(posts.filter((r) => r.status === 200 && refusedIds.has(r.headers['webhook-id']))).toEqual([]);
      // A split does not use up a scheduled attempt: every Pix was delivered at its first.
      for (const m of first) expect((await notifier.get(`/notifier/notifications/${notificationIdFor(m.endToEndId)}`)).body).toMatchObject({ status: 'delivered', attemptCount: 1 });

      // Learned for the life of this worker: the next backlog goes in POSTs of at most 3, none refused.
      const before = posts.length;
      const second = await cashIns(30, [KEY.big]);
      await psp!.publishAll(second);
      await receiver.waitUntil(allAccepted(second), 60_000, 'the next 30 accepted');
      const later = receiver.requests.filter(under('big')).slice(before);
      expect(later.map((r) => [r.status, e2eIds(r).length <= 3])).toEqual(later.map(() => [200, true]));
      expect(later.some((r) => e2eIds(r).length > 1)).toBe(true);
      console.log(`413: ${refused.length} refused POSTs (sizes ${refused.map((r) => e2eIds(r).length).join(', ')}), then ${posts.length - refused.length} accepted; next 30 in ${later.length} POSTs`);
    });

    it('kill -9 during a batched POST: every endToEndId arrives, duplicates repeat an earlier webhook-id and body', async () => {
      const batch = await cashIns(1000, CRASH_KEYS);
      const mine = new Set(batch.map((m) => m.endToEndId));
      receiver.responder = (r) => ({ status: 200, delayMs: r.path.startsWith('/c') ? 20 : 0 });
      const doomed = await startNotifier({ WEBHOOK_TIMEOUT: '2s' });
      let inFlight: Received | undefined;
      const stopWatching = receiver.onRequest((r) => {
        // Once a third has arrived, kill on the next POST carrying several Pix, before it is answered.
        if (inFlight || !r.path.startsWith('/c') || e2eIds(r).length < 2 || batch.filter((m) => accepted(m).length > 0).length < 333) return;
        inFlight = r;
        doomed.child.kill('SIGKILL');
      });
      await psp!.publishAll(batch);
      await receiver.waitUntil(() => inFlight !== undefined, 120_000, 'a batched POST after a third of the deliveries');
      stopWatching();
      await doomed.kill();
      expect(doomed.child.signalCode).toBe('SIGKILL');

      const successor = await startNotifier({ WEBHOOK_TIMEOUT: '2s' });
      // The dead worker's claims come back when their lease ends (timeout + margin, ~32 s).
      await receiver.waitUntil(allAccepted(batch), 180_000, 'all 1,000 cash-ins delivered');
      expect(await idle(successor, 90_000)).toEqual({ pending: 0, dead: 0, inFlight: 0, oldestPendingAgeMs: null });

      // The POST in flight at the kill came again, whole: same id, same bytes, and was accepted.
      const again = receiver.requests.filter((r) => r !== inFlight && r.headers['webhook-id'] === inFlight!.headers['webhook-id']);
      expect(again.length).toBeGreaterThan(0);
      expect(again.map((r) => [r.body, r.status])).toContainEqual([inFlight!.body, 200]);
      // Every endToEndId: the exact Pix, under one webhook-id whose every POST had the same body, accepted at least once.
      const bodies = new Map<string, string>();
      const counts = new Map<number, number>();
      for (const m of batch) {
        const requests = receiver.forEndToEndId(m.endToEndId);
        expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
        expect(requests[0].path).toBe(`/c${CRASH_KEYS.indexOf(m.chave)}/pix`);
        expect(requests[0].json.pix.find((p: Pix) => p.endToEndId === m.endToEndId)).toEqual(JSON.parse(JSON.stringify(officialPix(m))));
        for (const r of requests) {
          const id = r.headers['webhook-id'] as string;
          expect(r.body).toBe(bodies.get(id) ?? r.body);
          bodies.set(id, r.body);
        }
        const n = accepted(m).length;
        expect(n).toBeGreaterThanOrEqual(1);
        counts.set(n, (counts.get(n) ?? 0) + 1);
      }
      // …and nothing else arrived on those URLs.
      const crashPosts = receiver.requests.filter((r) => r.path.startsWith('/c'));
      expect(crashPosts.flatMap(e2eIds).filter((e) => !mine.has(e))).toEqual([]);
      const tally = [...counts].sort(([a], [b]) => a - b).map(([times, n]) => `${n} accepted ${times}x`).join(', ');
      console.log(`kill -9: in-flight POST ${inFlight!.headers['webhook-id']} with ${e2eIds(inFlight!).length} Pix; ${crashPosts.length} POSTs for 1,000 Pix; ${tally}`);
    });
  });
}
