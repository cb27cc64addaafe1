import { randomUUID } from 'node:crypto';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Kafka, logLevel, type Consumer, type Producer } from 'kafkajs';
import { KafkaBatchContext } from './batch-context';
import { KafkaBatchServer } from './batch-server';
import type { TopicContract } from './validated-batch';

// The batch transport against a real broker, through Nest's own handler pipeline: batches under
// load, dead letters without stopping, retries without committing, nothing lost over a restart.
// Topics and groups are new per run, so no other suite's consumers share them.
jest.setTimeout(120_000);

// The broker `npm test` provisions (a test, not the library, reads the environment).
// eslint-disable-next-line no-restricted-properties
const BROKERS = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Item {
  n: number;
}
const contract = (deadLetterTopic: string): TopicContract<Item> => ({
  parse(value) {
    try {
      const v = JSON.parse(value?.toString('utf8') ?? '');
      return Number.isInteger(v?.n) ? { value: v as Item } : { error: 'n must be an integer' };
    } catch {
      return { error: 'not JSON' };
    }
  },
  deadLetterTopic,
});

/** What the handler does with a batch; the test swaps it. */
type Behaviour = (batch: Item[], context: KafkaBatchContext) => Promise<void>;

(BROKERS.length ? describe : describe.skip)('KafkaBatchServer (real broker)', () => {
  const kafka = new Kafka({ clientId: 'test-batch-server', brokers: BROKERS, logLevel: logLevel.NOTHING });
  let producer: Producer;
  const run = randomUUID().slice(0, 8);
  const topic = `test.batch.${run}`;
  const dlt = `${topic}.dlt`;
  const transportId = Symbol('test-batch');
  let behaviour: Behaviour = async () => undefined;
  const calls: { items: Item[]; partition: number }[] = [];

  @Controller()
  class TestConsumer {
    @EventPattern(topic, transportId)
    async onBatch(@Payload() batch: Item[], @Ctx() context: KafkaBatchContext) {
      await behaviour(batch, context);
      calls.push({ items: batch, partition: context.getPartition() });
    }
  }
  @Module({ controllers: [TestConsumer] })
  class TestModule {}

  const errors: string[] = [];
  async function startConsumer(groupId: string, healthy?: () => Promise<boolean>): Promise<{ app: INestMicroservice; server: KafkaBatchServer }> {
    const server = new KafkaBatchServer({ transportId, kafka, groupId, topics: { [topic]: contract(dlt) }, logger: { log: () => undefined, error: (m) => errors.push(m) }, healthy });
    const app = await NestFactory.createMicroservice(TestModule, { strategy: server, logger: false });
    await app.listen();
    for (const deadline = Date.now() + 60_000; server.state !== 'joined'; await sleep(100)) if (Date.now() > deadline) throw new Error('group did not join');
    return { app, server };
  }
  const publish = (values: string[]) => producer.send({ topic, acks: -1, messages: values.map((value) => ({ key: 'one-key', value })) });
  const items = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => JSON.stringify({ n: from + i }));
  const received = () => calls.flatMap((c) => c.items.map((i) => i.n));
  async function until(what: string, done: () => boolean, timeoutMs = 60_000) {
    for (const deadline = Date.now() + timeoutMs; !done(); await sleep(50)) if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
  async function committed(groupId: string): Promise<number> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
      return offsets.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
    } finally {
      await admin.disconnect();
    }
  }

  beforeAll(async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1 }, { topic: dlt, numPartitions: 1 }] });
    await admin.disconnect();
    producer = kafka.producer();
    await producer.connect();
  });
  afterAll(async () => {
    await producer?.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic, dlt] }).catch(() => undefined);
    await admin.disconnect();
  });
  beforeEach(() => {
    calls.length = 0;
    errors.length = 0;
    behaviour = async () => undefined;
  });

  it('hands a backlog to the handler in batches of several messages, in order', async () => {
    await publish(items(0, 1000));
    const { app } = await startConsumer(`test-batch-a-${run}`);
    try {
      await until('1000 messages', () => received().length >= 1000);
      expect(received()).toEqual(Array.from({ length: 1000 }, (_, i) => i));
      expect(Math.max(...calls.map((c) => c.items.length))).toBeGreaterThan(1);
      expect(calls.length).toBeLessThan(100);
      expect(calls.every((c) => c.items.length <= 500)).toBe(true); // slices of maxBatch
    } finally {
      await app.close();
    }
    expect(await committed(`test-batch-a-${run}`)).toBe(1000);
  });

  it('dead-letters invalid messages with their reason and goes on with the rest of the batch', async () => {
    const group = `test-batch-b-${run}`;
    const reader: Consumer = kafka.consumer({ groupId: `test-batch-dlt-${run}` });
    const dead: { value: string; headers: Record<string, string> }[] = [];
    await reader.connect();
    await reader.subscribe({ topic: dlt, fromBeginning: true });
    await reader.run({ eachMessage: async ({ message }) => void dead.push({ value: message.value!.toString(), headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])) }) });
    // Everything in topic order after test a's 1000: 1000..1009, junk, 1010..1019, {"n":"x"}, 1020..1029.
    await publish([...items(1000, 1010), 'junk', ...items(1010, 1020), '{"n":"x"}', ...items(1020, 1030)]);
    await publish(items(1030, 1040));
    const { app } = await startConsumer(group);
    try {
      await until('every valid message', () => received().filter((n) => n >= 1000).length >= 40);
      expect(received().filter((n) => n >= 1000)).toEqual(Array.from({ length: 40 }, (_, i) => 1000 + i));
      await until('two dead letters', () => dead.length >= 2, 30_000);
      expect(dead.map((d) => [d.value, d.headers['dlt-reason'], d.headers['dlt-consumer']])).toEqual([
        ['junk', 'not JSON', group],
        ['{"n":"x"}', 'n must be an integer', group],
      ]);
      expect(dead.map((d) => d.headers['dlt-source'])).toEqual([`${topic}/0/1010`, `${topic}/0/1021`]);
    } finally {
      await app.close();
      await reader.disconnect();
    }
  });

  it('retries a failing batch without committing; a restart mid-retry loses nothing', async () => {
    const group = `test-batch-c-${run}`;
    // The group starts at the end of what earlier tests published.
    const { app: first } = await startConsumer(group);
    await until('the backlog', () => received().length >= 1040);
    // 1,042 messages so far (1,040 valid, 2 dead-lettered), all committed once the batches are done.
    for (const deadline = Date.now() + 10_000; (await committed(group)) !== 1042 && Date.now() < deadline; ) await sleep(200);
    const base = await committed(group);
    expect(base).toBe(1042);
    calls.length = 0;
    let attempts = 0;
    behaviour = async () => {
      attempts++;
      throw new Error('database down');
    };
    await publish(items(2000, 2050));
    await until('several attempts', () => attempts >= 3, 30_000);
    expect(calls).toEqual([]);
    expect(await committed(group)).toBe(base);
    expect(errors.some((e) => /handling \d+ message\(s\) failed \(attempt 2\); retrying/.test(e))).toBe(true);
    // Shut down while it keeps failing: it stops retrying and leaves the batch for redelivery.
    const closing = Date.now();
    await first.close();
    expect(Date.now() - closing).toBeLessThan(10_000);
    expect(await committed(group)).toBe(base);

    // A fresh consumer of the same group gets the whole batch again; a first failure is retried, then it succeeds.
    let failures = 1;
    behaviour = async () => {
      if (failures-- > 0) throw new Error('one more failure');
    };
    const { app: second } = await startConsumer(group);
    try {
      await until('the batch after the restart', () => received().length >= 50);
      expect(received()).toEqual(Array.from({ length: 50 }, (_, i) => 2000 + i));
      for (const deadline = Date.now() + 10_000; (await committed(group)) !== base + 50 && Date.now() < deadline; ) await sleep(200);
      expect(await committed(group)).toBe(base + 50);
    } finally {
      await second.close();
    }
  });

  it("hands each valid message's sane x-correlation-id to the handler beside it (invalid ids and dead letters dropped)", async () => {
    const group = `test-batch-d-${run}`;
    const seen: [number, string | undefined][] = [];
    behaviour = async (batch, context) => {
      batch.forEach((item, i) => item.n >= 3000 && seen.push([item.n, context.getTraces()[i]?.correlationId]));
    };
    const header = (id: string | Buffer) => ({ 'x-correlation-id': id });
    await producer.send({
      topic,
      acks: -1,
      messages: [
        { key: 'one-key', value: JSON.stringify({ n: 3000 }), headers: header('req-3000') },
        { key: 'one-key', value: 'junk', headers: header('req-junk') },
        { key: 'one-key', value: JSON.stringify({ n: 3001 }) },
        { key: 'one-key', value: JSON.stringify({ n: 3002 }), headers: header('bad id\n[cid=forged]') },
        { key: 'one-key', value: JSON.stringify({ n: 3003 }), headers: header(Buffer.from('req-3003')) },
        { key: 'one-key', value: JSON.stringify({ n: 3004 }), headers: header('x'.repeat(101)) },
      ],
    });
    const { app } = await startConsumer(group);
    try {
      await until('the traced messages', () => seen.length >= 5);
      expect(seen).toEqual([
        [3000, 'req-3000'],
        [3001, undefined],
        [3002, undefined],
        [3003, 'req-3003'],
        [3004, undefined],
      ]);
    } finally {
      await app.close();
    }
  });

  it('a stop that begins while a batch is being handled commits that batch before leaving: a clean stop replays nothing', async () => {
    const group = `test-batch-e-${run}`;
    const admin = kafka.admin();
    await admin.connect();
    const end = async () => (await admin.fetchTopicOffsets(topic)).reduce((sum, p) => sum + Number(p.high), 0);
    try {
      const { app } = await startConsumer(group);
      const backlog = await end();
      for (const deadline = Date.now() + 30_000; (await committed(group)) !== backlog && Date.now() < deadline; ) await sleep(100);
      expect(await committed(group)).toBe(backlog);
      let started: () => void = () => undefined;
      const inHandler = new Promise<void>((resolve) => (started = resolve));
      behaviour = async (batch) => {
        if (batch.some((item) => item.n === 4000)) {
          started();
          await sleep(500);
        }
      };
      await publish(items(4000, 4005));
      await inHandler;
      await app.close(); // while the handler still holds the batch
      expect(await committed(group)).toBe(backlog + 5);
    } finally {
      await admin.disconnect();
    }
  });

  it('quarantines a message the handler always fails on while its dependencies answer, and goes on; during an outage it never does', async () => {
    const reader: Consumer = kafka.consumer({ groupId: `test-batch-q-${run}` });
    const dead: { value: string; reason: string; consumer: string }[] = [];
    await reader.connect();
    await reader.subscribe({ topic: dlt, fromBeginning: true });
    await reader.run({ eachMessage: async ({ message }) => void dead.push({ value: message.value!.toString(), reason: String(message.headers?.['dlt-reason']), consumer: String(message.headers?.['dlt-consumer']) }) });
    // 5007 passes validation but the handler fails on it every time (a value the database refuses, say).
    behaviour = async (batch) => {
      if (batch.some((item) => item.n === 5007)) throw new Error('invalid input value for the database');
    };
    const poison = JSON.stringify({ n: 5007 });
    await publish(items(5000, 5015));
    const { app } = await startConsumer(`test-batch-f-${run}`, async () => true);
    try {
      await until('the messages after the poison', () => received().includes(5014), 60_000);
      expect(received().filter((n) => n >= 5000 && n < 6000)).toEqual(Array.from({ length: 15 }, (_, i) => 5000 + i).filter((n) => n !== 5007));
      await until('the quarantined message', () => dead.some((d) => d.value === poison), 30_000);
      expect(dead.filter((d) => d.value === poison).map((d) => d.reason)).toEqual([expect.stringMatching(/^the handler failed 6 times on this message alone while its dependencies answered/)]);
    } finally {
      await app.close();
    }
    // Dependencies down: the same failure is waited out, not dead-lettered. A new group reads the
    // topic from its start and stops at 5007 for as long as the probe says the database is down.
    calls.length = 0;
    let probes = 0;
    const outageGroup = `test-batch-g-${run}`;
    const { app: outage } = await startConsumer(outageGroup, async () => (probes++, false));
    try {
      await until('a probe that finds the dependencies down', () => probes >= 1, 60_000);
      await sleep(1000);
      expect(received()).toContain(5006);
      expect(received()).not.toContain(5008);
      expect(dead.filter((d) => d.consumer === outageGroup && d.value === poison)).toEqual([]);
    } finally {
      await outage.close();
      await reader.disconnect();
    }
  });
});
