import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer, type KafkaMessage } from 'kafkajs';
import { readDeadLetters, replayDeadLetters } from './dead-letters';
import { deadLetterOf, type TopicContract } from './validated-batch';

// The dead-letter topic read and replayed against a real broker, on topics new per run (no other
// suite's consumers see them): reading commits nothing and stops at the end; a replay publishes
// each refused source once, as it was sent, and skips what the contract still refuses.
jest.setTimeout(120_000);

// The broker `npm test` provisions (a test, not the library, reads the environment).
// eslint-disable-next-line no-restricted-properties
const BROKERS = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);

const contract: TopicContract<{ n: number }> = {
  parse(value) {
    try {
      const v = JSON.parse(value?.toString('utf8') ?? '');
      return Number.isInteger(v?.n) ? { value: v } : { error: 'n must be an integer' };
    } catch {
      return { error: 'not JSON' };
    }
  },
  deadLetterTopic: 'unused',
};

const original = (offset: number, key: string, value: string): KafkaMessage =>
  ({ key: Buffer.from(key), value: Buffer.from(value), offset: String(offset), headers: {}, timestamp: '0', attributes: 0 }) as KafkaMessage;

(BROKERS.length ? describe : describe.skip)('dead letters (real broker)', () => {
  const kafka = new Kafka({ clientId: 'test-dead-letters', brokers: BROKERS, logLevel: logLevel.NOTHING });
  const run = randomUUID().slice(0, 8);
  const topic = `test.dlt-replay.${run}`;
  const dlt = `${topic}.dlt`;
  const admin = kafka.admin();

  beforeAll(async () => {
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1 }, { topic: dlt, numPartitions: 2 }] });
  });
  afterAll(async () => {
    await admin.deleteTopics({ topics: [topic, dlt] }).catch(() => undefined);
    await admin.disconnect();
  });

  it('reads an absent topic as empty', async () => {
    expect(await readDeadLetters(kafka, `${dlt}.absent`)).toEqual([]);
  });

  it('lists every dead letter, replays each source once as it was sent, and skips what the contract still refuses', async () => {
    const where = (consumerName: string) => ({ topic, partition: 0, consumerName });
    // The same message refused by two consumer groups (two copies), a quarantined one, one still invalid.
    const stored = [
      deadLetterOf(original(7, 'key-a', '{"n":1}'), 'handler failed 5 times: boom', where('group-1')),
      deadLetterOf(original(7, 'key-a', '{"n":1}'), 'handler failed 5 times: boom', where('group-2')),
      deadLetterOf(original(9, 'key-b', '{"n":2}'), 'handler failed 5 times: bang', where('group-1')),
      deadLetterOf(original(11, 'key-c', 'not json'), 'not JSON', where('group-1')),
    ];
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: dlt, messages: stored.map((m, i) => ({ key: m.key, value: m.value, headers: m.headers, partition: i % 2 })) });
    await producer.disconnect();

    const letters = await readDeadLetters(kafka, dlt);
    expect(letters.map((l) => [l.id, l.source, l.consumer, l.reason, l.key?.toString(), l.value?.toString()])).toEqual([
      ['0/0', `${topic}/0/7`, 'group-1', 'handler failed 5 times: boom', 'key-a', '{"n":1}'],
      ['0/1', `${topic}/0/9`, 'group-1', 'handler failed 5 times: bang', 'key-b', '{"n":2}'],
      ['1/0', `${topic}/0/7`, 'group-2', 'handler failed 5 times: boom', 'key-a', '{"n":1}'],
      ['1/1', `${topic}/0/11`, 'group-1', 'not JSON', 'key-c', 'not json'],
    ]);
    // Reading committed nothing and left no group behind: a second read sees the same.
    expect((await readDeadLetters(kafka, dlt)).map((l) => l.id)).toEqual(['0/0', '0/1', '1/0', '1/1']);
    expect((await admin.listGroups()).groups.filter((g) => g.groupId.startsWith('pix-dead-letters-reader-'))).toEqual([]);

    const outcome = await replayDeadLetters(kafka, letters, dlt, topic, contract);
    expect(outcome.replayed.map((l) => l.id)).toEqual(['0/0', '0/1']);
    expect(outcome.copies.map((l) => l.id)).toEqual(['1/0']);
    expect(outcome.invalid.map((i) => [i.letter.id, i.error])).toEqual([['1/1', 'not JSON']]);

    const received: KafkaMessage[] = [];
    const consumer: Consumer = kafka.consumer({ groupId: `test-dlt-replay-${run}` });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void received.push(message) });
    const deadline = Date.now() + 30_000;
    while (received.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1000)); // nothing more arrives
    await consumer.disconnect();
    expect(received.map((m) => [m.key?.toString(), m.value?.toString(), m.headers?.['dlt-replayed-from']?.toString()])).toEqual([
      ['key-a', '{"n":1}', `${dlt}/0/0`],
      ['key-b', '{"n":2}', `${dlt}/0/1`],
    ]);
  });

  it('replays more than the broker takes in one request (1.2 MB on one partition) in bounded sends', async () => {
    const big = `${topic}.big`;
    const bigDlt = `${dlt}.big`;
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: big, numPartitions: 1 }, { topic: bigDlt, numPartitions: 1 }] });
    try {
      const pad = 'x'.repeat(2000);
      const stored = Array.from({ length: 600 }, (_, n) => deadLetterOf(original(n, `key-${n}`, JSON.stringify({ n, pad })), 'handler failed 5 times: boom', { topic: big, partition: 0, consumerName: 'group-1' }));
      const producer = kafka.producer();
      await producer.connect();
      for (let i = 0; i < stored.length; i += 100) await producer.send({ topic: bigDlt, messages: stored.slice(i, i + 100).map(({ key, value, headers }) => ({ key, value, headers })) });
      await producer.disconnect();

      const letters = await readDeadLetters(kafka, bigDlt);
      expect(letters).toHaveLength(600);
      const outcome = await replayDeadLetters(kafka, letters, bigDlt, big, contract);
      expect(outcome.replayed.map((l) => l.id)).toEqual(letters.map((l) => l.id));
      const ends = await admin.fetchTopicOffsets(big);
      expect(ends.map((o) => o.high)).toEqual(['600']);
    } finally {
      await admin.deleteTopics({ topics: [big, bigDlt] }).catch(() => undefined);
    }
  });

  it('skips a letter larger than the topic takes and replays the rest', async () => {
    const small = `${topic}.small`;
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: small, numPartitions: 1, configEntries: [{ name: 'max.message.bytes', value: '20000' }] }] });
    try {
      const letters = [1, 30_000, 2].map((n, i) => ({ id: `0/${i}`, source: `${small}/0/${i}`, consumer: 'g', reason: 'r', key: null, value: Buffer.from(JSON.stringify({ n, pad: 'x'.repeat(n) })) }));
      const outcome = await replayDeadLetters(kafka, letters, dlt, small, contract);
      expect(outcome.replayed.map((l) => l.id)).toEqual(['0/0', '0/2']);
      expect(outcome.invalid.map((i) => [i.letter.id, i.error])).toEqual([['0/1', 'larger than the topic takes (the broker answered MESSAGE_TOO_LARGE)']]);
      expect((await admin.fetchTopicOffsets(small)).map((o) => o.high)).toEqual(['2']);
    } finally {
      await admin.deleteTopics({ topics: [small] }).catch(() => undefined);
    }
  });

  it("publishes a letter again with the message's own headers (not the dlt-* ones) and skips one stored without its bytes", async () => {
    const own = `${topic}.own`;
    const ownDlt = `${dlt}.own`;
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: own, numPartitions: 1 }, { topic: ownDlt, numPartitions: 1 }] });
    try {
      const sent = { ...original(3, 'key-h', '{"n":3}'), headers: { 'x-correlation-id': Buffer.from('req-3'), 'content-type': Buffer.from('application/json'), 'x-psp': Buffer.from('core') } } as KafkaMessage;
      const where = { topic: own, partition: 0, consumerName: 'group-1' };
      const kept = deadLetterOf(sent, 'handler failed 5 times: boom', where);
      const bare = deadLetterOf(original(4, 'key-i', ''), 'not JSON', where);
      const withoutBytes = { ...bare, value: null, headers: { ...bare.headers, 'dlt-omitted': `value of 1048476 bytes, too large for this topic; the message remains at ${own}/0/4` } };
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({ topic: ownDlt, messages: [kept, withoutBytes].map(({ key, value, headers }) => ({ key, value, headers })) });
      await producer.disconnect();

      const letters = await readDeadLetters(kafka, ownDlt);
      expect(letters.map((l) => [l.id, l.omitted, Object.keys(l.headers ?? {})])).toEqual([
        ['0/0', undefined, ['x-correlation-id', 'content-type', 'x-psp']],
        ['0/1', `value of 1048476 bytes, too large for this topic; the message remains at ${own}/0/4`, []],
      ]);
      const outcome = await replayDeadLetters(kafka, letters, ownDlt, own, contract);
      expect(outcome.replayed.map((l) => l.id)).toEqual(['0/0']);
      expect(outcome.invalid.map((i) => [i.letter.id, i.error])).toEqual([['0/1', `not stored whole here (value of 1048476 bytes, too large for this topic; the message remains at ${own}/0/4)`]]);

      const received: KafkaMessage[] = [];
      const consumer: Consumer = kafka.consumer({ groupId: `test-dlt-own-${run}` });
      await consumer.connect();
      await consumer.subscribe({ topic: own, fromBeginning: true });
      await consumer.run({ eachMessage: async ({ message }) => void received.push(message) });
      for (const deadline = Date.now() + 30_000; received.length < 1 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 100));
      await consumer.disconnect();
      expect(received.map((m) => Object.fromEntries(Object.entries(m.headers ?? {}).map(([k, v]) => [k, String(v)])))).toEqual([
        { 'x-correlation-id': 'req-3', 'content-type': 'application/json', 'x-psp': 'core', 'dlt-replayed-from': `${ownDlt}/0/0` },
      ]);
    } finally {
      await admin.deleteTopics({ topics: [own, ownDlt] }).catch(() => undefined);
    }
  });
});
