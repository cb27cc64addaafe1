import { loadNotifierConfig } from './config';

describe('notifier configuration', () => {
  it('reads brokers, database and delivery settings', () => {
    const c = loadNotifierConfig({ KAFKA_BROKERS: 'kafka:9092', DATABASE_URL: 'postgres://p@db/pix', WEBHOOK_TIMEOUT: '20s', WEBHOOK_RETRY_SCHEDULE: '1s,1m' });
    expect(c).toMatchObject({ port: 8081, kafkaBrokers: ['kafka:9092'], groupId: 'pix-notifier', delivery: { timeoutMs: 20_000, schedule: [1000, 60_000] } });
  });
  it('rejects bad values with a message each', () => {
    expect(() => loadNotifierConfig({ NOTIFIER_PORT: 'x', KAFKA_BROKERS: 'kafka', WEBHOOK_SIGNING_SECRET: 'plain' })).toThrow(
      /NOTIFIER_PORT[\s\S]*KAFKA_BROKERS[\s\S]*DATABASE_URL[\s\S]*WEBHOOK_SIGNING_SECRET/,
    );
  });
});
