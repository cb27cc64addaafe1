import { randomUUID } from 'node:crypto';
import { LOCAL_KEY, newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { newE2e, sleep } from '../support/cash-in-fixtures';
import { deleteGroups, kafkaBrokers, lockKafka, startGroupsAtEnd } from '../support/kafka-client';
import { Receiver } from '../support/receiver';

// Local mode: concurrent sandbox payments race for one charge or one endToEndId. A bank refuses
// all but one; so must the sandbox payer (found by a black-box audit: three 202s, three Pix and
// three webhooks for one charge; a webhook for a Pix never recorded). Over the in-process
// transport and, when KAFKA_BROKERS is set, over Kafka (settlement after the publish, ADR 7).
jest.setTimeout(180_000);

const BROKERS = kafkaBrokers();
if (!BROKERS) console.warn('sandbox-payer-races.int.ts: the Kafka transport NOT RUN: KAFKA_BROKERS is not set');
// Groups of this run, moved to the topic's end: local mode's own (from DATA_DIR) would read the broker's history first.
const GROUPS = { SETTLEMENT_GROUP_ID: `races-settlement-${randomUUID()}`, NOTIFIER_GROUP_ID: `races-notifier-${randomUUID()}` };
const TRANSPORTS: { transport: string; env: Record<string, string> }[] = [{ transport: 'in-process', env: {} }, ...(BROKERS ? [{ transport: 'Kafka', env: { KAFKA_BROKERS: BROKERS.join(','), ...GROUPS } }] : [])];
const ROUNDS = 20;
const WHOLE_TIME = 'inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z';
const INVALID = 'https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida';

describe.each(TRANSPORTS)('sandbox payer under concurrent payments (local mode, $transport transport)', ({ env }) => {
  let api: RunningApi;
  let receiver: Receiver;
  let unlock: (() => void) | undefined;
  const pay = async (body: Record<string, unknown>) => {
    const r = await fetch(`${api.baseUrl}/sandbox/cash-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as any };
  };
  const charge = async (original: string) => {
    const txid = newTxid('race');
    expect((await api.request('PUT', `/cobv/${txid}`, validCobV({ valor: { original } }))).status).toBe(201);
    return txid;
  };
  /** Every Pix the webhook received (a POST may carry several). */
  const notified = () => receiver.requests.flatMap((r) => (Array.isArray(r.json?.pix) ? r.json.pix : []));
  /** Waits for at least one notified Pix whose `field` is each of `values`, then a while longer for any extra one. */
  const notificationsBy = async (field: 'txid' | 'endToEndId', values: string[]) => {
    await receiver.waitUntil(() => values.every((v) => notified().some((p) => p[field] === v)), 15_000, `a notification for each of ${values.length} ${field}s`);
    await sleep(1500);
    return (txid: string) => notified().filter((p) => p.txid === txid);
  };

  beforeAll(async () => {
    if (BROKERS && 'KAFKA_BROKERS' in env) {
      unlock = await lockKafka(BROKERS, 600_000);
      await startGroupsAtEnd(BROKERS, Object.values(GROUPS)).catch(() => undefined); // no topic yet: nothing to skip
    }
    receiver = await Receiver.start();
    api = await startApi({ env: { WEBHOOK_RETRY_SCHEDULE: '200ms', WEBHOOK_TIMEOUT: '2s', ...env } });
    expect((await api.request('PUT', `/webhook/${LOCAL_KEY}`, { webhookUrl: `${receiver.url}/hook` })).status).toBe(200);
    // Kafka's consumer groups join in the background: race only once a payment has been settled.
    const first = await charge('1.00');
    expect((await pay({ txid: first })).status).toBe(202);
    for (const deadline = Date.now() + 60_000; (await api.request('GET', `/cobv/${first}`)).body.status !== 'CONCLUIDA'; await sleep(200))
      if (Date.now() > deadline) throw new Error('the first payment was not settled within 60 s');
  }, 700_000);
  afterAll(async () => {
    await api?.stop();
    await receiver?.close();
    if (BROKERS && 'KAFKA_BROKERS' in env) await deleteGroups(BROKERS, Object.values(GROUPS));
    unlock?.();
  });

  it(`accepts one of three concurrent payments of one charge and refuses the others (${ROUNDS} rounds)`, async () => {
    const rounds: { txid: string; statuses: number[]; refusals: unknown[]; listed: number }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const txid = await charge('7.00');
      const answers = await Promise.all([1, 2, 3].map(() => pay({ txid })));
      const refusals = answers.filter((a) => a.status !== 202).map((a) => [a.body.type, a.body.violacoes?.[0]?.propriedade, /CONCLUIDA/.test(a.body.violacoes?.[0]?.razao)]);
      const listed = (await api.request('GET', `/pix?${WHOLE_TIME}&txid=${txid}`)).body.pix.length;
      rounds.push({ txid, statuses: answers.map((a) => a.status).sort(), refusals, listed });
    }
    const of = await notificationsBy('txid', rounds.map((r) => r.txid));
    const wrong = rounds.filter(
      (r) =>
        r.statuses.join() !== '202,400,400' ||
        r.listed !== 1 ||
        of(r.txid).length !== 1 ||
        r.refusals.some((x) => JSON.stringify(x) !== JSON.stringify([INVALID, 'txid', true])),
    );
    expect(wrong.map((r) => ({ ...r, notified: of(r.txid).length }))).toEqual([]);
  });

  it(`accepts one of two concurrent payments of two charges with one endToEndId, and notifies the Pix it recorded (${ROUNDS} rounds)`, async () => {
    const rounds: { e2e: string; a: string; b: string; statuses: number[]; refusal?: unknown; recorded?: string; status: Record<string, string> }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const [a, b, e2e] = [await charge('5.00'), await charge('6.00'), newE2e()];
      const answers = await Promise.all([a, b].map((txid) => pay({ txid, endToEndId: e2e })));
      const refused = answers.find((x) => x.status !== 202);
      const recorded = (await api.request('GET', `/pix/${e2e}`)).body.txid;
      const status = Object.fromEntries(await Promise.all([a, b].map(async (t) => [t, (await api.request('GET', `/cobv/${t}`)).body.status])));
      const refusal = refused && [refused.body.type, refused.body.violacoes?.[0]?.propriedade];
      rounds.push({ e2e, a, b, statuses: answers.map((x) => x.status).sort(), refusal, recorded, status });
    }
    // The notified Pix is the recorded one; its charge is CONCLUIDA, the other one still ATIVA and never notified.
    const of = await notificationsBy('endToEndId', rounds.map((r) => r.e2e));
    const wrong = rounds
      .map((r) => ({ ...r, notified: [...of(r.a), ...of(r.b)].map((p) => `${p.endToEndId === r.e2e ? 'e2e' : p.endToEndId} ${p.txid === r.a ? 'a' : 'b'} ${p.valor}`) }))
      .filter((r) => {
        const winner = r.recorded === r.a ? 'a' : r.recorded === r.b ? 'b' : undefined;
        const loser = winner === 'a' ? r.b : r.a;
        return (
          r.statuses.join() !== '202,400' ||
          JSON.stringify(r.refusal) !== JSON.stringify([INVALID, 'endToEndId']) ||
          winner === undefined ||
          r.status[r.recorded!] !== 'CONCLUIDA' ||
          r.status[loser] !== 'ATIVA' ||
          r.notified.join() !== `e2e ${winner} ${winner === 'a' ? '5.00' : '6.00'}`
        );
      });
    expect(wrong).toEqual([]);
  });
});
