/**
 * Item 5's load and raw ceilings: cash-ins published as a PSP's core does (kafkajs, idempotent
 * producer, one request in flight, acks from all replicas, key = the Pix key), a produce-to-
 * consume round trip on a scratch topic with that same producer, and raw https POSTs.
 */
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { CASH_IN_TOPIC, type PixRecebidoMessage } from '@pix/contracts';
import { ensureCashInTopics } from '@pix/messaging-kafka';
import { RECEBEDOR } from './fixtures';
import { closedLoop, type Durations, type Point } from './load';

export const PIX_KEY = RECEBEDOR.chaves[0];
const HEADERS = { 'content-type': 'application/json' };

/** A cash-in as a PSP's core publishes it; endToEndId E + ISPB + yyyyMMddHHmm + 11 (`first` replaces the E). */
export function cashIn(txid: string, first = 'E', chave = PIX_KEY): PixRecebidoMessage {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 12);
  return {
    versao: 1,
    endToEndId: `${first}12345678${stamp}${randomBytes(8).toString('hex').slice(0, 11)}`,
    txid,
    chave,
    valor: '123.45',
    horario: new Date().toISOString(),
    infoPagador: 'Pagamento via Kafka',
    pagador: { cpf: '12345678909', nome: 'Francisco da Silva' },
    componentesValor: { original: { valor: '123.45' } },
  };
}

/** What the webhook carries for a cash-in: `{"pix":[the official Pix]}` (no versao, no payer). */
export const webhookBody = ({ versao: _v, pagador: _p, ...pix }: PixRecebidoMessage) => JSON.stringify({ pix: [pix] });

export interface Psp {
  kafka: Kafka;
  producer: Producer;
  publish(m: PixRecebidoMessage, topic?: string): Promise<void>;
  /**
   * A backlog as a PSP core's producer sends it under load: produce requests of `chunk` messages,
   * one in flight (single sends with one request in flight cap at a few hundred messages/s on
   * one broker, which would measure this producer instead of what consumes).
   */
  publishMany(messages: PixRecebidoMessage[], chunk?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Connects the PSP core's producer (topics created if missing, as the apps do). */
export async function connectPsp(brokers: string): Promise<Psp> {
  const kafka = new Kafka({ clientId: 'bench-psp-core', brokers: brokers.split(','), logLevel: logLevel.NOTHING, retry: { retries: 8 } });
  await ensureCashInTopics(kafka);
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  return {
    kafka,
    producer,
    publish: async (m, topic = CASH_IN_TOPIC) => {
      await producer.send({ topic, acks: -1, messages: [{ key: m.chave, value: JSON.stringify(m), headers: HEADERS }] });
    },
    publishMany: async (messages, chunk = 100) => {
      for (let i = 0; i < messages.length; i += chunk) {
        const part = messages.slice(i, i + chunk).map((m) => ({ key: m.chave, value: JSON.stringify(m), headers: HEADERS }));
        await producer.send({ topic: CASH_IN_TOPIC, acks: -1, messages: part });
      }
    },
    stop: () => producer.disconnect(),
  };
}

/** Moves a consumer group (not running yet) to the end of the cash-in topic, so it sees only this run's messages. */
export async function skipOldCashIns(kafka: Kafka, groupIds: string[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    // The real end offsets: kafkajs's resetOffsets({ earliest: false }) stores -1 ("latest"),
    // which a group reading from the beginning takes as "start over" (the whole topic again).
    const ends = await admin.fetchTopicOffsets(CASH_IN_TOPIC);
    const partitions = ends.map((p) => ({ partition: p.partition, offset: p.high }));
    for (const groupId of groupIds) await admin.setOffsets({ groupId, topic: CASH_IN_TOPIC, partitions });
  } finally {
    await admin.disconnect();
  }
}

/**
 * Raw Kafka ceiling: the same producer and message shape on a scratch topic (6 partitions like
 * the cash-in topic, same key), a kafkajs consumer group in this process; `inFlight` messages
 * outstanding, each timed from the send call to its eachMessage.
 */
export async function roundTripCeiling(psp: Psp, inFlight: number, d: Durations, txid: string): Promise<Point> {
  const topic = `bench.roundtrip.${Date.now().toString(36)}`;
  const groupId = `bench-roundtrip-${Date.now().toString(36)}`;
  const admin = psp.kafka.admin();
  await admin.connect();
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 6 }] });
  const consumer = psp.kafka.consumer({ groupId });
  const waiting = new Map<string, () => void>();
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    await consumer.run({
      eachMessage: async ({ message }) => {
        const id = JSON.parse(message.value!.toString('utf8')).endToEndId as string;
        waiting.get(id)?.();
        waiting.delete(id);
      },
    });
    await joined;
    await psp.publish(cashIn(txid), topic); // first message: partition leadership and fetch session settled
    return await closedLoop(inFlight, d, async () => {
      const m = cashIn(txid);
      const consumed = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`round trip of ${m.endToEndId} over 30 s`)), 30_000);
        waiting.set(m.endToEndId, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      consumed.catch(() => undefined); // awaited below; never an unhandled rejection if the send fails first
      await psp.publish(m, topic);
      await consumed;
    });
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect();
  }
}

/** Raw HTTP ceiling: node:https POSTs of a webhook body to the receiver, keep-alive, trusting the same CA. */
export async function rawPostCeiling(url: string, caPath: string, body: string, concurrency: number, d: Durations): Promise<Point> {
  const agent = new https.Agent({ keepAlive: true, ca: readFileSync(caPath) });
  const headers = { 'content-type': 'application/json', 'user-agent': 'bench-raw/1', 'webhook-id': '00000000-0000-4000-8000-000000000000', 'content-length': String(Buffer.byteLength(body)) };
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const request = https.request(url, { method: 'POST', agent, headers }, (response) => {
        response.resume();
        response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${response.statusCode}`))));
      });
      request.on('error', reject);
      request.end(body);
    });
  try {
    return await closedLoop(concurrency, d, post);
  } finally {
    agent.destroy();
  }
}
