import { randomUUID } from 'node:crypto';
import { ConfigResourceTypes } from 'kafkajs';
import { createKafka, ensureCashInTopics } from './kafka-client';
import { recordTimestamp } from './validated-batch';

// The topics the apps create: a cash-in's record timestamp is the broker's (a producer's clock
// cannot move the horario bound), and the dead-letter topic takes what the cash-in topic took.
jest.setTimeout(60_000);

// The broker `npm test` provisions (a test, not the library, reads the environment).
// eslint-disable-next-line no-restricted-properties
const BROKERS = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);

if (!BROKERS.length) {
  describe('cash-in topics', () => {
    console.warn('cash-in-topics.int.ts NOT RUN: KAFKA_BROKERS is not set');
    it.skip('cash-in topics NOT RUN: KAFKA_BROKERS is not set', () => undefined);
  });
} else {
  describe('cash-in topics (real broker)', () => {
    const run = randomUUID().slice(0, 8);
    const names = { cashIn: `test.cash-in.${run}`, deadLetters: `test.cash-in.${run}.dlt` };
    const kafka = createKafka(BROKERS, `topics-${run}`);

    it('keeps the broker append time on the cash-in topic, whatever timestamp a producer sets, and 8 MiB on the dead-letter topic', async () => {
      await ensureCashInTopics(kafka, 1, names);
      const admin = kafka.admin();
      await admin.connect();
      const described = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [
          { type: ConfigResourceTypes.TOPIC, name: names.cashIn, configNames: ['message.timestamp.type'] },
          { type: ConfigResourceTypes.TOPIC, name: names.deadLetters, configNames: ['max.message.bytes'] },
        ],
      });
      await admin.disconnect();
      const value = (topic: string) => described.resources.find((r) => r.resourceName === topic)!.configEntries[0].configValue;
      expect([value(names.cashIn), value(names.deadLetters)]).toEqual(['LogAppendTime', String(8 * 1_048_576)]);

      const producer = kafka.producer();
      await producer.connect();
      const sentAt = Date.now();
      await producer.send({ topic: names.cashIn, messages: [{ key: 'k', value: '{}', timestamp: String(Date.parse('2099-01-01T00:00:00Z')) }] });
      await producer.disconnect();
      const consumer = kafka.consumer({ groupId: `topics-${run}` });
      await consumer.connect();
      await consumer.subscribe({ topics: [names.cashIn], fromBeginning: true });
      const timestamp = await new Promise<Date>((resolve) => void consumer.run({ eachMessage: async ({ message }) => resolve(recordTimestamp(message)) }));
      await consumer.disconnect();
      expect(timestamp.getTime()).toBeGreaterThanOrEqual(sentAt - 60_000);
      expect(timestamp.getTime()).toBeLessThan(Date.now() + 60_000);
    });
  });
}
