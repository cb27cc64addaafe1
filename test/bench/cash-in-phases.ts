/**
 * Item 5's throughput phases, each against the apps from outside (Kafka in, https out): a
 * backlog published at once (batched callbacks, or WEBHOOK_MAX_BATCH=1 over 16 keys), and one
 * key's rate beside another key whose receiver is slow and has a backlog.
 */
import type { PixRecebidoMessage } from '@pix/contracts';
import type { Pool } from 'pg';
import { cashIn, type Psp } from './kafka-load';
import { closedLoop, type Durations, type Point } from './load';
import { epochMs, type WebhookReceiver } from './webhook-receiver';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Burst {
  count: number;
  /** First send to the last Pix read by the receiver. */
  ms: number;
  /** First send to the broker's last acknowledgement. */
  publishMs: number;
  posts: number;
  largestPost: number;
  /** First send to the last of its Pix written to the outbox (the intake's end), when a database was given. */
  storedMs?: number;
  /** First send to the last of its Pix's first POST started (the claims' end). */
  attemptedMs?: number;
}

/**
 * A backlog, as at a large receiver's peak: `messages` published at once in produce requests of
 * 100 (see Psp.publishMany); timed from the first send to the receiver reading the last Pix.
 * Batching shows here: while a POST is in flight, what arrives meanwhile rides the next one.
 */
export async function backlogBurst(psp: Psp, receiver: WebhookReceiver, messages: PixRecebidoMessage[], db?: Pool): Promise<Burst> {
  const arrivals = messages.map((m) => receiver.expect(m.endToEndId, 180_000));
  for (const a of arrivals) a.catch(() => undefined); // awaited below
  const posts = receiver.webhookPosts;
  receiver.largestPost = 0;
  const started = epochMs();
  await psp.publishMany(messages);
  const published = epochMs();
  const last = Math.max(...(await Promise.all(arrivals)));
  const burst: Burst = { count: messages.length, ms: last - started, publishMs: published - started, posts: receiver.webhookPosts - posts, largestPost: receiver.largestPost };
  if (!db) return burst;
  // Where the burst's tail is: the intake still storing, the claims, or the POSTs themselves.
  const { rows } = await db.query<{ stored: number; attempted: number }>(
    `SELECT extract(epoch FROM max(o.created_at)) * 1000 AS stored, (SELECT extract(epoch FROM max(f.first)) * 1000 FROM (
        SELECT min(a.attempted_at) AS first FROM webhook_outbox_attempts a JOIN webhook_outbox w ON w.id = a.notification_id WHERE w.end_to_end_id = ANY($1::text[]) GROUP BY a.notification_id) f) AS attempted
       FROM webhook_outbox o WHERE o.end_to_end_id = ANY($1::text[])`,
    [messages.map((m) => m.endToEndId)],
  );
  return { ...burst, storedMs: Number(rows[0].stored) - started, attemptedMs: Number(rows[0].attempted) - started };
}

/**
 * The API's settlement of every cash-in published through the returned Psp, followed: `settled()`
 * resolves once each charge paid so far is CONCLUIDA. Phases start there, so a window carries its
 * own settlement and not the previous phase's (the API settles a burst of 3,000 for a second or
 * more after the receiver has it, on the same two cores). Other topics (ceilings) are not followed.
 */
export function followSettlement(psp: Psp, db: Pool, recebedorId: string): { psp: Psp; settled(): Promise<void> } {
  const pending = new Set<string>();
  const follow = (m: PixRecebidoMessage, topic?: string) => {
    if (topic === undefined && m.txid) pending.add(`${recebedorId}/${m.txid}`);
  };
  const followed: Psp = {
    ...psp,
    publish: (m, topic) => (follow(m, topic), psp.publish(m, topic)),
    publishMany: (messages, chunk) => (messages.forEach((m) => follow(m)), psp.publishMany(messages, chunk)),
  };
  const settled = async () => {
    for (const deadline = Date.now() + 120_000; pending.size > 0; await sleep(50)) {
      const { rows } = await db.query<{ id: string }>(`SELECT id FROM rm_cobv WHERE id = ANY($1::text[]) AND status = 'CONCLUIDA'`, [[...pending]]);
      for (const r of rows) pending.delete(r.id);
      if (pending.size > 0 && Date.now() > deadline) throw new Error(`the API has not settled ${pending.size} cash-ins within 120 s (first: ${[...pending][0]})`);
    }
  };
  return { psp: followed, settled };
}

/** Publishes one cash-in and resolves once the receiver has read the POST carrying it. */
export function deliverer(psp: Psp, receiver: WebhookReceiver, txid: () => string, timeoutMs = 30_000) {
  return async (chave: string, onArrival?: (m: PixRecebidoMessage, published: number, received: number) => void) => {
    const m = cashIn(txid(), 'E', chave);
    const arrival = receiver.expect(m.endToEndId, timeoutMs);
    arrival.catch(() => undefined); // awaited below; never an unhandled rejection if the send fails first
    const published = epochMs();
    await psp.publish(m);
    const received = await arrival;
    onArrival?.(m, published, received);
  };
}

export interface Isolation {
  /** Key B alone before key A is slowed and loaded, and again after A is drained (drift shows as their difference). */
  alone: Point;
  aloneAfter: Point;
  withSlow: Point;
  backlog: number;
  /** Key A's Pix the receiver read during B's measured window, and those still waiting at its end. */
  slowDuringWindow: number;
  slowWaitingAtEnd: number;
}

/**
 * Key B's closed-loop rate alone, then again while key A's receiver answers after `slowMs` and
 * `backlog` of A's Pix wait in the notifier (published, taken into the outbox and settled by the
 * API before B's second window, so the two keys share the workers, not the intake). Each of B's
 * windows starts once the API has settled what came before. Afterwards A is made fast
 * again and drained, and B measured alone once more (the machine's drift between windows).
 */
export async function slowKeyIsolation(o: {
  psp: Psp;
  receiver: WebhookReceiver;
  db: Pool;
  txid: () => string;
  fastKey: string;
  slowKey: string;
  slowPath: string;
  slowMs: number;
  backlog: number;
  inFlight: number;
  run: Durations;
  /** Resolves once the API has settled everything published (followSettlement). */
  settled: () => Promise<void>;
}): Promise<Isolation> {
  const deliver = deliverer(o.psp, o.receiver, o.txid);
  const bWindow = async () => {
    await o.settled();
    await closedLoop(o.inFlight, { warmupMs: 0, measureMs: o.run.warmupMs }, () => deliver(o.fastKey));
    return closedLoop(o.inFlight, { warmupMs: 0, measureMs: o.run.measureMs }, () => deliver(o.fastKey));
  };
  const alone = await bWindow();

  o.receiver.delays.set(o.slowPath, o.slowMs);
  try {
    const slow = Array.from({ length: o.backlog }, () => cashIn(o.txid(), 'E', o.slowKey));
    let arrived = 0;
    const arrivals = slow.map((m) => o.receiver.expect(m.endToEndId, 600_000).then(() => void arrived++));
    for (const a of arrivals) a.catch(() => undefined); // awaited below
    await o.psp.publishMany(slow);
    const ids = slow.map((m) => m.endToEndId);
    for (const deadline = Date.now() + 120_000; ; await sleep(100)) {
      const { rows } = await o.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_outbox WHERE end_to_end_id = ANY($1::text[])', [ids]);
      if (rows[0].n === ids.length && arrived > 0) break;
      if (Date.now() > deadline) throw new Error(`key A's backlog not taken in within 120 s (${rows[0].n} of ${ids.length} in the outbox, ${arrived} delivered)`);
    }
    await o.settled(); // A's Pix settled by the API too: B's window shares the notifier with A, not the API's settling of A
    await closedLoop(o.inFlight, { warmupMs: 0, measureMs: o.run.warmupMs }, () => deliver(o.fastKey));
    const before = arrived;
    const withSlow = await closedLoop(o.inFlight, { warmupMs: 0, measureMs: o.run.measureMs }, () => deliver(o.fastKey));
    const during = arrived - before;
    const waiting = o.backlog - arrived;
    o.receiver.delays.delete(o.slowPath);
    await Promise.all(arrivals);
    const aloneAfter = await bWindow();
    return { alone, aloneAfter, withSlow, backlog: o.backlog, slowDuringWindow: during, slowWaitingAtEnd: waiting };
  } finally {
    o.receiver.delays.delete(o.slowPath);
  }
}
