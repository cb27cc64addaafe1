import { randomUUID } from 'node:crypto';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, Payload } from '@nestjs/microservices';
import { CASH_IN_TOPIC, type PixRecebidoMessage } from '@pix/contracts';
import { Kafka, logLevel } from 'kafkajs';
import { KafkaBatchServer, type DeadLetterKind } from './batch-server';
import { CASH_IN_CONTRACT } from './cash-in-contract';

// A dead-lettered cash-in is money received that settles and notifies nothing: the apps count it
// in a metric through `onDeadLetters` (an operator audit found only a log line, no series to alert on).
jest.setTimeout(120_000);

// eslint-disable-next-line no-restricted-properties
const BROKERS = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

(BROKERS.length ? describe : describe.skip)('dead letters are told to onDeadLetters (real broker)', () => {
  const kafka = new Kafka({ clientId: 'test-dlt-count', brokers: BROKERS, logLevel: logLevel.NOTHING });
  const run = randomUUID().slice(0, 8);
  const topic = `test.dlt-count.${run}`;
  const dlt = `${topic}.dlt`;
  const e2e = (n: number) => `E12345678202611281500${String(n).padStart(11, '0')}`;
  const cashIn = (n: number) => ({ key: 'k', value: JSON.stringify({ versao: 1, endToEndId: e2e(n), chave: 'k', valor: '1.00', horario: new Date().toISOString() }) });

  afterAll(async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic, dlt] }).catch(() => undefined);
    await admin.disconnect();
  });

  it('counts an invalid message and a poison pill (the handler fails on it while its dependencies answer)', async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [topic, dlt].map((t) => ({ topic: t, numPartitions: 1 })) });
    await admin.disconnect();
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: [{ key: 'k', value: 'junk' }, cashIn(1), cashIn(2)] });
    await producer.disconnect();

    const handled: string[] = [];
    const transportId = Symbol(topic);
    @Controller()
    class TestConsumer {
      @EventPattern(topic, transportId)
      async onBatch(@Payload() batch: PixRecebidoMessage[]) {
        if (batch.some((m) => m.endToEndId === e2e(1))) throw new Error('poison');
        handled.push(...batch.map((m) => m.endToEndId));
      }
    }
    @Module({ controllers: [TestConsumer] })
    class TestModule {}
    const logger = { log: () => undefined, error: () => undefined, warn: () => undefined };
    const contract = { ...CASH_IN_CONTRACT[CASH_IN_TOPIC], deadLetterTopic: dlt };
    const server = new KafkaBatchServer({ transportId, kafka, groupId: `test-dlt-count-${run}`, topics: { [topic]: contract }, logger, healthy: async () => true });
    const told: [DeadLetterKind, number][] = [];
    server.onDeadLetters = (kind, count) => void told.push([kind, count]);
    const app: INestMicroservice = await NestFactory.createMicroservice(TestModule, { strategy: server, logger: false });
    await app.listen();
    try {
      for (const deadline = Date.now() + 90_000; !handled.includes(e2e(2)); await sleep(100)) if (Date.now() > deadline) throw new Error('stalled');
    } finally {
      await app.close();
    }
    expect(told).toEqual([
      ['invalid', 1],
      ['quarantined', 1],
    ]);
  });
});
