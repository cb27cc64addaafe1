import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kafka, logLevel, type Consumer, type Producer } from 'kafkajs';
import { CASH_IN_DEAD_LETTER_TOPIC, CASH_IN_TOPIC, type PixRecebidoMessage } from '@pix/contracts';
import { localConsumerGroups } from '../../apps/api/src/config/settlement-config';
import { ensureCashInTopics } from '@pix/messaging-kafka';

/** The brokers `npm test` passes (undefined for a manual run without Kafka). */
export function kafkaBrokers(): string[] | undefined {
  const list = (process.env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
  return list.length > 0 ? list : undefined;
}

const kafkaFor = (brokers: string[], clientId: string) => new Kafka({ clientId, brokers, logLevel: logLevel.NOTHING, retry: { retries: 8 } });

/** Publishes cash-ins exactly as a PSP's core would: topic pix.cash-in.v1, key = the Pix key. */
export class PspCore {
  private constructor(private readonly producer: Producer) {}

  static async connect(brokers: string[]): Promise<PspCore> {
    const kafka = kafkaFor(brokers, 'test-psp-core');
    await ensureCashInTopics(kafka);
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    return new PspCore(producer);
  }

  /** `headers`: more message headers (an `x-correlation-id`, say). */
  publish(message: PixRecebidoMessage, headers: Record<string, string> = {}): Promise<void> {
    return this.publishRaw(message.chave, JSON.stringify(message), headers);
  }

  /**
   * Sends again after each failure (broker down) until the broker acknowledges or `timeoutMs`
   * passes, as a PSP's core retries; a resend may duplicate, which consumers absorb by endToEndId.
   */
  async publishUntilAcknowledged(message: PixRecebidoMessage, timeoutMs: number): Promise<void> {
    for (const deadline = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 250))) {
      try {
        return await this.publish(message);
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
    }
  }

  /** Any bytes under any key (invalid messages included). */
  async publishRaw(key: string, value: string, headers: Record<string, string> = {}): Promise<void> {
    await this.producer.send({ topic: CASH_IN_TOPIC, acks: -1, messages: [{ key, value, headers: { 'content-type': 'application/json', ...headers } }] });
  }

  /** Many messages in few requests (in order per key). */
  async publishAll(messages: PixRecebidoMessage[], chunk = 100): Promise<void> {
    for (let i = 0; i < messages.length; i += chunk) {
      const part = messages.slice(i, i + chunk).map((m) => ({ key: m.chave, value: JSON.stringify(m), headers: { 'content-type': 'application/json' } }));
      await this.producer.send({ topic: CASH_IN_TOPIC, acks: -1, messages: part });
    }
  }

  disconnect(): Promise<void> {
    return this.producer.disconnect();
  }
}

export interface DeadLetter {
  key: string | null;
  value: string | null;
  headers: Record<string, string>;
}

/** Reads pix.cash-in.v1.dlt from the beginning in a throw-away consumer group. */
export class DeadLetterReader {
  readonly records: DeadLetter[] = [];

  private constructor(
    private readonly kafka: Kafka,
    private readonly consumer: Consumer,
    private readonly groupId: string,
  ) {}

  static async start(brokers: string[]): Promise<DeadLetterReader> {
    const kafka = kafkaFor(brokers, 'test-dlt-reader');
    await ensureCashInTopics(kafka);
    const groupId = `test-dlt-${randomUUID()}`;
    const consumer = kafka.consumer({ groupId });
    const reader = new DeadLetterReader(kafka, consumer, groupId);
    await consumer.connect();
    await consumer.subscribe({ topic: CASH_IN_DEAD_LETTER_TOPIC, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : v)]));
        reader.records.push({ key: message.key?.toString('utf8') ?? null, value: message.value?.toString('utf8') ?? null, headers });
      },
    });
    return reader;
  }

  async waitFor(predicate: (r: DeadLetter) => boolean, count: number, timeoutMs: number): Promise<DeadLetter[]> {
    for (const deadline = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 100))) {
      const found = this.records.filter(predicate);
      if (found.length >= count) return found;
      if (Date.now() > deadline) throw new Error(`dead-letter topic: ${found.length} of ${count} expected records within ${timeoutMs} ms`);
    }
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
    const admin = this.kafka.admin();
    await admin.connect();
    await admin.deleteGroups([this.groupId]).catch(() => undefined);
    await admin.disconnect();
  }
}

/**
 * Serialises the test files that run the apps against one shared broker. The apps' consumer
 * groups (pix-api-settlement, pix-notifier) and topics have fixed names, so two files running
 * them at the same time would share partitions and settle or notify each other's cash-ins in
 * the wrong database. A lock directory per broker address; a dead owner's lock is taken over.
 */
export async function lockKafka(brokers: string[], timeoutMs: number): Promise<() => void> {
  const dir = path.join(tmpdir(), `pix-e2e-kafka-${brokers.join(',').replace(/[^A-Za-z0-9]/g, '_')}.lock`);
  const owner = path.join(dir, 'owner');
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 250))) {
    try {
      mkdirSync(dir);
      writeFileSync(owner, String(process.pid));
      // Only spares a long catch-up on a broker with history: a failure leaves the groups as they are.
      await startNewDefaultGroupsAtEnd(brokers).catch((error) => console.warn(`default consumer groups left where they are: ${(error as Error).message}`));
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (isStale(dir, owner)) rmSync(dir, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`another test file held ${dir} for more than ${timeoutMs} ms`);
  }
}

function isStale(dir: string, owner: string): boolean {
  const old = () => {
    try {
      return Date.now() - statSync(dir).mtimeMs > 10_000;
    } catch {
      return false;
    }
  };
  let pid: number;
  try {
    pid = Number(readFileSync(owner, 'utf8'));
  } catch {
    return old(); // created but the owner not written yet (or already released)
  }
  if (!Number.isInteger(pid) || pid <= 0) return old();
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Moves consumer groups that are not running yet to the end of the cash-in topic: a new group
 * reads from the beginning, and a test's apps must see only that test's cash-ins.
 */
export async function startGroupsAtEnd(brokers: string[], groupIds: string[]): Promise<void> {
  const admin = kafkaFor(brokers, 'test-group-offsets').admin();
  await admin.connect();
  try {
    const partitions = (await admin.fetchTopicOffsets(CASH_IN_TOPIC)).map((p) => ({ partition: p.partition, offset: p.high }));
    for (const groupId of groupIds) await admin.setOffsets({ groupId, topic: CASH_IN_TOPIC, partitions });
  } finally {
    await admin.disconnect();
  }
}

/**
 * The groups the apps join when a test names none (SETTLEMENT_GROUP_ID, NOTIFIER_GROUP_ID unset):
 * production's, and local mode's for the default DATA_DIR (./data of this checkout), which every
 * local-mode API the harness starts in this process shares.
 */
const DEFAULT_GROUPS = ['pix-api-settlement', 'pix-notifier', ...Object.values(localConsumerGroups(path.resolve('data')))];

/**
 * A default group that never committed on this broker starts at the cash-in topic's end, not its
 * beginning: on a broker with history (KAFKA_BROKERS of a developer's, where a bench run left
 * 285,000 cash-ins) the first test's apps read all of it before that test's own cash-ins, and its
 * waits ran out. Groups with commits keep them: tests restart apps in them and expect redelivery.
 */
async function startNewDefaultGroupsAtEnd(brokers: string[]): Promise<void> {
  const admin = kafkaFor(brokers, 'test-group-offsets').admin();
  await admin.connect();
  const fresh: string[] = [];
  try {
    if (!(await admin.listTopics()).includes(CASH_IN_TOPIC)) return;
    for (const groupId of DEFAULT_GROUPS) {
      const [committed] = await admin.fetchOffsets({ groupId, topics: [CASH_IN_TOPIC] });
      if (committed.partitions.every((p) => p.offset === '-1')) fresh.push(groupId);
    }
  } finally {
    await admin.disconnect();
  }
  if (fresh.length > 0) await startGroupsAtEnd(brokers, fresh);
}

/** Deletes a test's consumer groups (best effort: a group still in use stays). */
export async function deleteGroups(brokers: string[], groupIds: string[]): Promise<void> {
  const admin = kafkaFor(brokers, 'test-group-offsets').admin();
  await admin.connect();
  await admin.deleteGroups(groupIds).catch(() => undefined);
  await admin.disconnect();
}
