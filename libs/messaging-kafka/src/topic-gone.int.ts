import { randomUUID } from 'node:crypto';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Kafka, logLevel } from 'kafkajs';
import { KafkaBatchServer } from './batch-server';
import { ensureCashInTopics } from './kafka-client';

// A broker restarted empty: the topic a joined group consumes disappears. kafkajs restarted the
// consumer every 300 ms for ever, each crash an uncollapsed error line (146 in 45 s, an audit).
jest.setTimeout(120_000);

// The broker `npm test` provisions (a test, not the library, reads the environment).
// eslint-disable-next-line no-restricted-properties
const BROKERS = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

(BROKERS.length ? describe : describe.skip)('KafkaBatchServer when its topic disappears (real broker)', () => {
  // Fewer retries than KAFKA_RETRY's ~50 s before the consumer crashes; the same crash after them.
  const kafka = new Kafka({ clientId: 'test-topic-gone', brokers: BROKERS, logLevel: logLevel.NOTHING, retry: { retries: 3, initialRetryTime: 300, maxRetryTime: 1000 } });
  const run = randomUUID().slice(0, 8);
  const topic = `test.gone.${run}`;
  const dlt = `${topic}.dlt`;
  const transportId = Symbol('test-gone');
  const received: number[] = [];

  @Controller()
  class TestConsumer {
    @EventPattern(topic, transportId)
    async onBatch(@Payload() batch: { n: number }[]) {
      received.push(...batch.map((m) => m.n));
    }
  }
  @Module({ controllers: [TestConsumer] })
  class TestModule {}

  afterAll(async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic, dlt] }).catch(() => undefined);
    await admin.disconnect();
  });

  it('says so once a minute (with a count) instead of every 300 ms, and rejoins once the topic is made again before a restart', async () => {
    let recreate = true;
    const errors: { at: number; line: string }[] = [];
    const contract = { parse: (v: Buffer | null) => ({ value: JSON.parse(v!.toString()) as { n: number } }), deadLetterTopic: dlt };
    const server = new KafkaBatchServer({
      transportId,
      kafka,
      groupId: `test-gone-${run}`,
      topics: { [topic]: contract },
      logger: { log: () => undefined, error: (line) => errors.push({ at: Date.now(), line }) },
      // As the apps' (ensureCashInTopics before each join); held back while the test watches the failures.
      prepare: async () => (recreate ? ensureCashInTopics(kafka, 1, { cashIn: topic, deadLetters: dlt }) : undefined),
    });
    const app = await NestFactory.createMicroservice(TestModule, { strategy: server, logger: false });
    await app.listen();
    try {
      for (const deadline = Date.now() + 60_000; server.state !== 'joined'; await sleep(100)) if (Date.now() > deadline) throw new Error('group did not join');
      recreate = false;
      const admin = kafka.admin();
      await admin.connect();
      await admin.deleteTopics({ topics: [topic] });
      await admin.disconnect();
      const gone = Date.now();
      await sleep(10_000);
      const during = errors.filter((e) => e.at >= gone).map((e) => e.line);
      // One line per way of failing, not one per 300 ms (~30 in these 10 s).
      expect(during.length).toBeGreaterThan(0);
      expect(during.length).toBeLessThanOrEqual(3);
      expect(server.state).toBe('joining');

      recreate = true;
      for (const deadline = Date.now() + 60_000; server.state !== 'joined'; await sleep(100)) if (Date.now() > deadline) throw new Error(`group did not rejoin: ${errors.map((e) => e.line).join('\n')}`);
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({ topic, acks: -1, messages: [{ value: JSON.stringify({ n: 7 }) }] });
      await producer.disconnect();
      for (const deadline = Date.now() + 30_000; !received.includes(7); await sleep(100)) if (Date.now() > deadline) throw new Error('message after the rejoin not handled');
    } finally {
      await app.close();
    }
  });
});
