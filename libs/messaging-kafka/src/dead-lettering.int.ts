import { randomUUID } from 'node:crypto';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, Payload } from '@nestjs/microservices';
import { CASH_IN_TOPIC, type PixRecebidoMessage } from '@pix/contracts';
import { Kafka, logLevel, type Consumer, type IHeaders, type Producer } from 'kafkajs';
import { KafkaBatchServer } from './batch-server';
import { CASH_IN_CONTRACT } from './cash-in-contract';

// Refused messages that do not fit in one request to the dead-letter topic, against a real broker
// with its default 1 MB message size: a backlog of ordinary invalid messages, one whose reason is
// huge, one as large as the source topic takes. None may stall the partition (the audit of
// 2026-11-27 found each retried forever). The cash-in contract is the real one (its reasons list
// every unknown member); topics and groups are new per run.
jest.setTimeout(180_000);

// The broker `npm test` provisions (a test, not the library, reads the environment).
// eslint-disable-next-line no-restricted-properties
const BROKERS = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Stored {
  value: Buffer | null;
  headers: Record<string, string>;
}
const text = (headers: IHeaders | undefined) => Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k, String(v)]));

(BROKERS.length ? describe : describe.skip)('dead-lettering what does not fit in one request (real broker)', () => {
  const kafka = new Kafka({ clientId: 'test-dead-lettering', brokers: BROKERS, logLevel: logLevel.NOTHING });
  const run = randomUUID().slice(0, 8);
  // One topic per test: each starts from a partition of its own.
  const topics = ['a', 'b', 'c', 'd'].map((t) => `test.dlt-size.${run}.${t}`);
  const dlt = `test.dlt-size.${run}.dlt`;
  const handled: string[] = [];
  const warnings: string[] = [];
  const errors: { line: string; correlationId?: string }[] = [];
  const dead: Stored[] = [];
  let producer: Producer;
  let reader: Consumer;

  /** Consumes `topic` in a new group with the real cash-in contract until `done`, then stops. */
  async function consume(topic: string, done: () => boolean): Promise<void> {
    const transportId = Symbol(topic);
    @Controller()
    class TestConsumer {
      @EventPattern(topic, transportId)
      async onBatch(@Payload() batch: PixRecebidoMessage[]) {
        handled.push(...batch.map((m) => m.endToEndId));
      }
    }
    @Module({ controllers: [TestConsumer] })
    class TestModule {}
    const contract = { ...CASH_IN_CONTRACT[CASH_IN_TOPIC], deadLetterTopic: dlt };
    const logger = { log: () => undefined, error: (m: string, correlationId?: string) => void errors.push({ line: m, correlationId }), warn: (m: string) => void warnings.push(m) };
    const server = new KafkaBatchServer({ transportId, kafka, groupId: `test-dlt-size-${topic}`, topics: { [topic]: contract }, logger });
    const app: INestMicroservice = await NestFactory.createMicroservice(TestModule, { strategy: server, logger: false });
    await app.listen();
    try {
      // A stalled partition retries for ever: 90 s is ample for what takes seconds.
      for (const deadline = Date.now() + 90_000; !done(); await sleep(100)) if (Date.now() > deadline) throw new Error(`stalled: ${dead.length} dead letter(s), ${handled.length} handled`);
    } finally {
      await app.close();
    }
  }
  const cashIn = (n: number) => {
    const endToEndId = `E12345678202611271500${String(n).padStart(11, '0')}`;
    return { key: 'k', value: JSON.stringify({ versao: 1, endToEndId, chave: 'k', valor: '1.00', horario: new Date().toISOString() }) };
  };
  const endToEndIdOf = (n: number) => JSON.parse(cashIn(n).value).endToEndId as string;

  beforeAll(async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [...topics, dlt].map((topic) => ({ topic, numPartitions: 1 })) });
    await admin.disconnect();
    producer = kafka.producer();
    await producer.connect();
    reader = kafka.consumer({ groupId: `test-dlt-size-reader-${run}`, maxBytesPerPartition: 4 * 1024 * 1024 });
    await reader.connect();
    await reader.subscribe({ topic: dlt, fromBeginning: true });
    await reader.run({ eachMessage: async ({ message }) => void dead.push({ value: message.value, headers: text(message.headers) }) });
  });
  afterAll(async () => {
    await reader?.disconnect();
    await producer?.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [...topics, dlt] }).catch(() => undefined);
    await admin.disconnect();
  });
  beforeEach(() => {
    handled.length = 0;
    warnings.length = 0;
    errors.length = 0;
    dead.length = 0;
  });

  it('dead-letters a backlog of 1,000 invalid 2 KB messages (more than 1 MB a slice) and goes on', async () => {
    const junk = Array.from({ length: 1000 }, (_, i) => ({ key: 'k', value: `junk ${i} ${'x'.repeat(2000)}` }));
    for (let i = 0; i < junk.length; i += 250) await producer.send({ topic: topics[0], acks: -1, messages: junk.slice(i, i + 250) });
    await producer.send({ topic: topics[0], acks: -1, messages: [cashIn(1)] });
    await consume(topics[0], () => handled.includes(endToEndIdOf(1)) && dead.length >= 1000);
    expect(dead.map((d) => d.value?.toString().split(' ').slice(0, 2).join(' '))).toEqual(junk.map((_, i) => `junk ${i}`));
  });

  it('stores a message whose reason is huge (thousands of unknown members) with a reason cut to 1,000 characters', async () => {
    const members = Object.fromEntries(Array.from({ length: 27_000 }, (_, i) => [`unknownMember${i}`, i]));
    const value = JSON.stringify({ versao: 1, ...members });
    expect(value.length).toBeGreaterThan(700_000);
    await producer.send({ topic: topics[1], acks: -1, messages: [{ key: 'k', value }, cashIn(2)] });
    await consume(topics[1], () => handled.includes(endToEndIdOf(2)) && dead.length >= 1);
    const [letter] = dead;
    expect(letter.value?.toString()).toBe(value);
    expect(letter.headers['dlt-reason']).toHaveLength(1000);
    expect(letter.headers['dlt-reason']).toMatch(/^unknown field\(s\): unknownMember0, unknownMember1, .*… \(\d+ characters in all\)$/);
  });

  it("stores a message as large as the source topic takes without its value, saying where the bytes remain, and warns", async () => {
    const value = Buffer.alloc(1_048_476, 'z');
    await producer.send({ topic: topics[2], acks: -1, messages: [{ key: 'k', value }] });
    await producer.send({ topic: topics[2], acks: -1, messages: [cashIn(3)] });
    await consume(topics[2], () => handled.includes(endToEndIdOf(3)) && dead.some((d) => d.headers['dlt-omitted'] !== undefined));
    const letter = dead.find((d) => d.headers['dlt-omitted'] !== undefined)!;
    expect(letter.value).toBeNull();
    expect(letter.headers['dlt-reason']).toBe('not JSON');
    expect(letter.headers['dlt-omitted']).toContain('1048476 bytes');
    expect(letter.headers['dlt-omitted']).toContain(letter.headers['dlt-source']);
    expect(warnings.some((w) => w.includes(letter.headers['dlt-source']) && /without its value/.test(w))).toBe(true);
  });

  it("keeps a refused message's own headers (x-correlation-id among them) beside the dlt-* ones", async () => {
    const headers = { 'x-correlation-id': 'req-junk', 'content-type': 'application/json', 'x-psp': 'core' };
    await producer.send({ topic: topics[3], acks: -1, messages: [{ key: 'k', value: 'junk', headers }, cashIn(4)] });
    await consume(topics[3], () => handled.includes(endToEndIdOf(4)) && dead.length >= 1);
    expect(dead.map((d) => d.headers)).toEqual([{ ...headers, 'dlt-reason': 'not JSON', 'dlt-consumer': `test-dlt-size-${topics[3]}`, 'dlt-source': `${topics[3]}/0/0` }]);
    // The line that reports it names the publisher's correlation id, as every line of that cash-in does (ADR 17).
    expect(errors.filter((e) => e.line.includes(`${topics[3]}/0/0 is invalid`)).map((e) => e.correlationId)).toEqual(['req-junk']);
  });
});
