/**
 * Item 5, cash-in to webhook, and the notifier's RSS. Run after every other timed point: Kafka
 * (KAFKA_BROKERS, else the throw-away broker of tools/kafka), the API in production mode with
 * KAFKA_BROKERS (it settles every cash-in), the notifier trusting a self-signed https receiver
 * in this process. Cash-ins go to pix.cash-in.v1 for seeded charges with the webhook registered.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { PixRecebidoMessage } from '@pix/contracts';
import { provisionAccess, TEST_CLIENT } from '../support/api-process';
import { apiHeaders } from './auth';
import { cpuMeter, kafkaBrokerPid, type Backend } from './cpu-meter';
import { backlogBurst, deliverer, followSettlement, slowKeyIsolation, type Burst } from './cash-in-phases';
import { RECEBEDOR } from './fixtures';
import { cashIn, connectPsp, PIX_KEY, rawPostCeiling, roundTripCeiling, skipOldCashIns, webhookBody } from './kafka-load';
import { closedLoop, percentile, type Durations } from './load';
import { startApi, startKafka, startNotifier, type Child, type Stoppable } from './processes';
import { fmtMs, fmtPoint, fmtRate, type Row } from './report';
import { waitForConnectionSlots } from './storage';
import { selfSignedCertificate, WebhookReceiver } from './webhook-receiver';

export const CASH_IN_IN_FLIGHT = Number(process.env.BENCH_CASHIN_IN_FLIGHT ?? 16);
const DELIVERY_TIMEOUT_MS = 30_000;

/** Everything item 5 started, stopped in reverse order (also from the bench's cleanup on failure). */
class Scope implements Stoppable {
  private readonly items: Stoppable[] = [];
  add<T extends Stoppable>(item: T): T {
    this.items.push(item);
    return item;
  }
  async stop(): Promise<void> {
    for (const s of this.items.splice(0).reverse()) await s.stop().catch(() => undefined);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const rss = (child: Child) => {
  const v = child.peakRssMiB();
  return v === undefined ? 'n/a' : `${v.toFixed(0)} MiB`;
};
const pct = (values: number[]) => {
  const s = Float64Array.from(values).sort();
  return `${fmtMs(percentile(s, 50))} / ${fmtMs(percentile(s, 99))}`;
};

export interface CashInOptions {
  url: string;
  db: Pool;
  /** Existing ATIVA charges to pay (the seeded ones), used from the end. */
  txids: string[];
  children: Stoppable[];
  log: (m: string) => void;
  ceiling: Durations;
  run: Durations;
}

export async function cashInRows(o: CashInOptions): Promise<Row[]> {
  const scope = new Scope();
  o.children.push(scope);
  let notifier: Child | undefined;
  let idle = 'n/a';
  try {
    o.log('item 5: starting Kafka, the https receiver, the API with KAFKA_BROKERS and the notifier');
    const kafka = scope.add(await startKafka());
    const group = `bench-notifier-${Date.now().toString(36)}`;
    const kafkaPsp = scope.add(await connectPsp(kafka.brokers));
    await skipOldCashIns(kafkaPsp.kafka, ['pix-api-settlement', group]);
    const { psp, settled } = followSettlement(kafkaPsp, o.db, RECEBEDOR.id);
    const tls = selfSignedCertificate();
    scope.add({ stop: async () => tls.remove() });
    const receiver = scope.add(await WebhookReceiver.start(tls));
    await waitForConnectionSlots(o.db, 52);
    // The receiver owns the bench key, key A of the slow-receiver phase and 16 more keys.
    const { id, chaves, ...dados } = RECEBEDOR;
    await provisionAccess(o.url, { receiver: { id, ...dados }, chaves: [...chaves, SLOW_KEY, ...SPREAD_KEYS], client: TEST_CLIENT });
    const api = scope.add(await startApi(o.url, [], { KAFKA_BROKERS: kafka.brokers }));
    const notifierEnv = { WEBHOOK_CA: tls.caPath, NOTIFIER_GROUP_ID: group };
    notifier = scope.add(await startNotifier(o.url, kafka.brokers, notifierEnv));
    await sleep(5000);
    idle = rss(notifier);

    // Before the timed windows: the webhooks, and one cash-in end to end (connections warmed, wiring checked).
    const hooks: [string, string][] = [[PIX_KEY, '/hook'], [SLOW_KEY, SLOW_PATH], ...SPREAD_KEYS.map((k, i): [string, string] => [k, `/k${i}`])];
    for (const [key, path] of hooks) {
      const put = await fetch(`${api.url}/v2/webhook/${key}`, { method: 'PUT', headers: apiHeaders({ 'content-type': 'application/json' }), body: JSON.stringify({ webhookUrl: `${receiver.url}${path}` }) });
      if (put.status !== 200) throw new Error(`PUT /v2/webhook answered ${put.status}: ${await put.text()}`);
    }
    let next = o.txids.length;
    const txid = () => o.txids[(next = next > 0 ? next - 1 : o.txids.length - 1)];
    const records = new Map<string, { published: number; received: number }>();
    const send = deliverer(psp, receiver, txid, DELIVERY_TIMEOUT_MS);
    const deliver = () => send(PIX_KEY, (m, published, received) => records.set(m.endToEndId, { published, received }));
    await deliver();

    const n = CASH_IN_IN_FLIGHT;
    o.log(`item 5: raw ceilings, ${n} in flight: Kafka produce → consume round trip, then https POSTs`);
    const rt = await roundTripCeiling(psp, n, o.ceiling, o.txids[0]);
    const post = await rawPostCeiling(`${receiver.url}/raw/pix`, tls.caPath, webhookBody(cashIn(o.txids[0], 'R')), n, o.ceiling);
    o.log(`item 5: cash-ins → webhook, ${n} in flight: ${o.run.warmupMs / 1000} s warm-up, ${o.run.measureMs / 1000} s measured`);
    await closedLoop(n, { warmupMs: 0, measureMs: o.run.warmupMs }, deliver);
    records.clear();
    const e2e = await closedLoop(n, { warmupMs: 0, measureMs: o.run.measureMs }, deliver);
    const stages = await whereTheTimeGoes(o.db, records);
    const burstRate = (b: Burst) => b.count / (b.ms / 1000);
    // Timed bursts of one shape, each once the API has settled what came before; the median by
    // rate is the figure (one burst lasts about a second, and this machine's noise moves one run by a third).
    const medianBurst = async (make: () => PixRecebidoMessage[], metered = false) => {
      const runs: { burst: Burst; cpu?: string }[] = [];
      for (let i = 0; i < BURST_RUNS; i++) {
        await settled();
        const backends = metered ? await o.db.query<Backend>(`SELECT pid, coalesce(application_name, '') AS app FROM pg_stat_activity WHERE datname = current_database()`) : undefined;
        const cpu = backends && cpuMeter({ notifier: notifier!.proc.pid, api: api.proc.pid, bench: process.pid, kafka: kafkaBrokerPid() }, backends.rows);
        const burst = await backlogBurst(psp, receiver, make(), o.db);
        runs.push({ burst, cpu: cpu?.perItem(burst.count) });
      }
      const median = [...runs].sort((a, b) => burstRate(a.burst) - burstRate(b.burst))[Math.floor(runs.length / 2)];
      return { ...median, rates: runs.map((r) => fmtRate(burstRate(r.burst), '').trim()).join(', ') };
    };
    o.log(`item 5: ${BURST_RUNS} bursts of ${BURST} cash-ins to one key (batched callbacks)`);
    const burst = await medianBurst(() => Array.from({ length: BURST }, () => cashIn(txid())));
    o.log(`item 5: key B alone, then beside key A whose receiver answers after ${SLOW_MS} ms with ${SLOW_BACKLOG} Pix waiting`);
    const iso = await slowKeyIsolation({ psp, receiver, db: o.db, txid, fastKey: PIX_KEY, slowKey: SLOW_KEY, slowPath: SLOW_PATH, slowMs: SLOW_MS, backlog: SLOW_BACKLOG, inFlight: n, run: o.run, settled });
    const batchedRss = rss(notifier);

    o.log(`item 5: the notifier restarted with WEBHOOK_MAX_BATCH=1; ${BURST_RUNS} bursts of ${BURST} cash-ins over ${SPREAD_KEYS.length} keys`);
    await notifier.stop();
    notifier = scope.add(await startNotifier(o.url, kafka.brokers, { ...notifierEnv, WEBHOOK_MAX_BATCH: '1' }));
    await Promise.all(SPREAD_KEYS.map((k) => send(k))); // wiring and connections, per key
    // A notifier just started runs its first thousands of deliveries before V8 has optimised
    // them (about twice the CPU per Pix): like every other point, the timed bursts follow a
    // warm-up, an untimed burst of the same shape, whose figure is reported beside it.
    const spreadBurst = () => Array.from({ length: BURST }, (_, i) => cashIn(txid(), 'E', SPREAD_KEYS[i % SPREAD_KEYS.length]));
    await settled();
    const coldSpread = await backlogBurst(psp, receiver, spreadBurst());
    const spread = await medianBurst(spreadBurst, true);
    // The POST ceiling again with the apps idle after the last burst: the bursts fall between the
    // two readings, and one reading of it moved by a third between runs.
    await settled();
    const postAfter = await rawPostCeiling(`${receiver.url}/raw/pix`, tls.caPath, webhookBody(cashIn(o.txids[0], 'R')), n, o.ceiling);
    const postRate = (post.rate + postAfter.rate) / 2;
    const burstCeiling = `raw \`node:https\` POST, ${n} concurrent, mean of just before the closed loop (above) and after the last burst: ${fmtRate(postRate, 'POSTs/s')} (${fmtRate(post.rate, 'and')} ${fmtRate(postAfter.rate, 'POSTs/s')})`;
    const duplicates = receiver.duplicates ? `, **${receiver.duplicates} duplicate Pix**` : '';
    const foreign = receiver.unexpected ? `, **${receiver.unexpected} Pix the bench did not publish or had given up on (another publisher on this broker? the figures are not valid)**` : '';
    const raw = rt.p99 + post.p99;
    const burstResult = ({ burst: b, rates }: { burst: Burst; rates: string }) =>
      `median of ${BURST_RUNS} bursts (${rates} Pix/s): ${fmtRate(burstRate(b), 'Pix/s')} (${b.count.toLocaleString('en-US')} in ${(b.ms / 1000).toFixed(1)} s, published in ${(b.publishMs / 1000).toFixed(2)} s${b.storedMs === undefined ? '' : `, the last stored in the outbox at ${(b.storedMs / 1000).toFixed(2)} s and POSTed from ${((b.attemptedMs ?? 0) / 1000).toFixed(2)} s`}); ${b.posts.toLocaleString('en-US')} POSTs, ${(b.count / Math.max(1, b.posts)).toFixed(1)} Pix per POST, at most ${b.largestPost}`;
    return [
      { item: '4', what: 'Peak RSS (VmHWM), notifier process, idle (before item 5), on the same database', result: idle, ceiling: '—' },
      {
        item: '5',
        what: `Cash-in → webhook, ${n} cash-ins in flight (publish to \`pix.cash-in.v1\` → API settles, notifier POSTs over https), deliveries/s and end-to-end latency`,
        result: `${fmtPoint(e2e, 'deliveries/s')}${duplicates}${foreign}`,
        ceiling: `raw \`node:https\` POST, ${n} concurrent: ${fmtPoint(post, 'POSTs/s')}`,
        ratio: e2e.rate / post.rate,
      },
      {
        item: '5',
        what: `Cash-in → webhook, ${n} in flight (same run): p99 end to end ÷ (Kafka round trip p99 + raw POST p99)`,
        result: `p50 ${fmtMs(e2e.p50)} / p99 ${fmtMs(e2e.p99)} ms`,
        ceiling: `kafkajs produce → consume round trip, same producer, scratch topic, ${n} in flight: ${fmtPoint(rt, 'msgs/s')}; + raw POST p99 ${fmtMs(post.p99)} = ${fmtMs(raw)} ms`,
        ratio: e2e.p99 / raw,
        budget: { kind: 'max-ratio', max: 2 },
      },
      { item: '5', what: 'Cash-in → webhook, where the time goes (same run), p50 / p99 per stage', result: stages, ceiling: '—' },
      {
        item: '5',
        what: `Cash-in → webhook, a burst of ${BURST.toLocaleString('en-US')} cash-ins to one key published at once, Pix delivered per second from the first send to the last arrival (batched callbacks, WEBHOOK_MAX_BATCH default)`,
        result: burstResult(burst),
        ceiling: burstCeiling,
        ratio: burstRate(burst.burst) / postRate,
        budget: { kind: 'min-ratio', min: 1.0 },
      },
      {
        item: '5',
        what: `Cash-in → webhook, slow receiver on another key: key B's deliveries/s (${n} in flight) while key A's receiver answers after ${SLOW_MS / 1000} s and ${SLOW_BACKLOG.toLocaleString('en-US')} of A's Pix wait, against key B alone (batched callbacks)`,
        result: `${fmtPoint(iso.withSlow, 'deliveries/s')}; A: ${iso.slowDuringWindow.toLocaleString('en-US')} Pix delivered during B's window, ${iso.slowWaitingAtEnd.toLocaleString('en-US')} still waiting at its end`,
        ceiling: `key B alone, mean of just before and just after (A drained): ${fmtRate((iso.alone.rate + iso.aloneAfter.rate) / 2, 'deliveries/s')} (${fmtPoint(iso.alone, 'deliveries/s')}; ${fmtPoint(iso.aloneAfter, 'deliveries/s')})`,
        ratio: iso.withSlow.rate / ((iso.alone.rate + iso.aloneAfter.rate) / 2),
        budget: { kind: 'max-drop', max: 0.1 },
      },
      { item: '4', what: 'Peak RSS (VmHWM), notifier process, after item 5 (default settings: every phase above)', result: batchedRss, ceiling: '—' },
      {
        item: '5',
        what: `Cash-in → webhook, WEBHOOK_MAX_BATCH=1 (a notifier started with it): a burst of ${BURST.toLocaleString('en-US')} cash-ins spread over ${SPREAD_KEYS.length} Pix keys (one webhook URL each), Pix delivered per second from the first send to the last arrival`,
        result: `${burstResult(spread)}; CPU per Pix during that burst: ${spread.cpu}; the warm-up burst before it, on the notifier just started: ${fmtRate(burstRate(coldSpread), 'Pix/s')} (${(burstRate(coldSpread) / postRate).toFixed(3)} of raw POSTs)`,
        ceiling: burstCeiling,
        ratio: burstRate(spread.burst) / postRate,
        budget: { kind: 'min-ratio', min: 0.5 },
      },
    ];
  } catch (error) {
    const why = (error as Error).message.split('\n')[0];
    o.log(`item 5 not measured: ${why}`);
    return [
      { item: '4', what: 'Peak RSS (VmHWM), notifier process, idle (before item 5), on the same database', result: notifier ? idle : `n/a (${why})`, ceiling: '—' },
      { item: '5', what: 'Cash-in → webhook, deliveries/s and end-to-end latency', result: `n/a (${why})`, ceiling: '—' },
      { item: '5', what: 'Cash-in → webhook, p99 end to end ÷ (Kafka round trip p99 + raw POST p99)', result: 'n/a', ceiling: '—', budget: { kind: 'max-ratio', max: 2 } },
      { item: '5', what: 'Cash-in → webhook, a burst to one key (batched callbacks), Pix/s ÷ raw POSTs/s', result: 'n/a', ceiling: '—', budget: { kind: 'min-ratio', min: 1.0 } },
      { item: '5', what: "Cash-in → webhook, slow receiver on another key: key B's rate against key B alone", result: 'n/a', ceiling: '—', budget: { kind: 'max-drop', max: 0.1 } },
      { item: '5', what: `Cash-in → webhook, WEBHOOK_MAX_BATCH=1, a burst over ${SPREAD_KEYS.length} keys, Pix/s ÷ raw POSTs/s`, result: 'n/a', ceiling: '—', budget: { kind: 'min-ratio', min: 0.5 } },
    ];
  } finally {
    await scope.stop();
  }
}

export const BURST = Number(process.env.BENCH_CASHIN_BURST ?? 3000);
/** Timed bursts per shape (the median is reported). */
export const BURST_RUNS = 3;
export const SLOW_MS = 1000;
export const SLOW_BACKLOG = Number(process.env.BENCH_CASHIN_SLOW_BACKLOG ?? 2000);
const SLOW_PATH = '/slow';
const SLOW_KEY = randomUUID();
export const SPREAD_KEYS: readonly string[] = Array.from({ length: 16 }, () => randomUUID());

/**
 * Splits each measured delivery at the notifier's own timestamps (same machine clock, whole
 * milliseconds): publish → outbox row written (`created_at`: Kafka, consumer, validation, the
 * webhook lookup), → first attempt started (`attempted_at`: outbox wait, claim, lookup again),
 * → POST received by the receiver (HTTPS request).
 */
async function whereTheTimeGoes(db: Pool, records: Map<string, { published: number; received: number }>): Promise<string> {
  const { rows } = await db.query<{ e2e: string; created: number; attempted: number }>(
    `SELECT o.end_to_end_id AS e2e, extract(epoch FROM o.created_at) * 1000 AS created, extract(epoch FROM min(a.attempted_at)) * 1000 AS attempted
       FROM webhook_outbox o JOIN webhook_outbox_attempts a ON a.notification_id = o.id
      WHERE o.end_to_end_id = ANY($1::text[]) GROUP BY o.end_to_end_id, o.created_at`,
    [[...records.keys()]],
  );
  const [intake, wait, send] = [[], [], []] as number[][];
  for (const r of rows) {
    const t = records.get(r.e2e)!;
    intake.push(Number(r.created) - t.published);
    wait.push(Number(r.attempted) - Number(r.created));
    send.push(t.received - Number(r.attempted));
  }
  const slept = wait.filter((ms) => ms >= 500).length; // the worker's idle poll is 1 s; nothing else here takes that long
  return `publish → outbox row ${pct(intake)} ms; → attempt started ${pct(wait)} ms (${slept.toLocaleString('en-US')} waited ≥ 500 ms); → POST received ${pct(send)} ms (${fmtRate(rows.length, 'deliveries')})`;
}
