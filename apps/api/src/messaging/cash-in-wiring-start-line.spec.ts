import { Logger, type LoggerService } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { Readiness } from '../health/readiness';
import { CashInWiring } from './cash-in-wiring';

// A broker that never answers: every Kafka call waits for ever (no sockets, no timers).
const never = () => new Promise<never>(() => undefined);
jest.mock('./kafka-transport', () => ({
  kafkaTransport: () => ({
    CASH_IN_CONTRACT: {},
    KAFKA_RETRY: {},
    KAFKA_PUBLISH_RETRY: {},
    createKafka: () => ({}),
    ensureCashInTopics: never,
    startNewGroupAt: never,
    topicEnd: never,
    KafkaLogs: class {
      close() {}
    },
    KafkaBatchServer: class {
      constructor(readonly options: { groupId: string }) {}
      get groupId() {
        return this.options.groupId;
      }
      reportedState() {
        return 'joining';
      }
      listen() {}
      async close() {}
    },
    KafkaCashInPublisher: class {
      connect = never;
      async disconnect() {}
    },
    BrokerProbe: class {
      check = never;
      async close() {}
    },
  }),
}));

// A README audit: "printed in the start-up line about Kafka". With the broker away that line came
// only once it was reached; for the first minute an operator read kafkajs's errors and nothing of ours.
describe('CashInWiring with KAFKA_BROKERS', () => {
  it('says at start, before any broker answers, where cash-ins come from and which groups read them', async () => {
    const lines: string[] = [];
    const quiet = () => undefined;
    const capture: LoggerService = { log: (m: unknown, c?: unknown) => void lines.push(`${String(c)}: ${String(m)}`), error: quiet, warn: quiet, debug: quiet, verbose: quiet };
    Logger.overrideLogger(capture);
    const config = { mode: 'production', kafkaBrokers: ['kafka:9092'], settlementGroupId: 'pix-api-settlement', notifierGroupId: 'pix-notifier' } as unknown as AppConfig;
    const wiring = new CashInWiring(config, {} as never, {} as never, {} as never, new Readiness(), { now: () => new Date() } as never);
    try {
      await wiring.onApplicationBootstrap();
      expect(lines).toContain('CashIn: cash-ins over Kafka at kafka:9092; consumer groups pix-api-settlement (settlement) joining in the background');
    } finally {
      await wiring.onApplicationShutdown();
      Logger.overrideLogger(false);
    }
  });
});
