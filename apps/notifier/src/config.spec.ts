import { loadNotifierConfig } from './config';

describe('notifier configuration', () => {
  it('reads brokers, database and delivery settings', () => {
    const c = loadNotifierConfig({ KAFKA_BROKERS: 'kafka:9092', DATABASE_URL: 'postgres://p@db/pix', WEBHOOK_TIMEOUT: '20s', WEBHOOK_RETRY_SCHEDULE: '1s,1m' });
    expect(c).toMatchObject({ port: 8081, kafkaBrokers: ['kafka:9092'], groupId: 'pix-notifier', delivery: { timeoutMs: 20_000, schedule: [1000, 60_000] } });
  });
  it('batching and lanes: WEBHOOK_MAX_BATCH (1 turns batching off), WEBHOOK_MAX_IN_FLIGHT_PER_KEY as the lane ceiling, WEBHOOK_SLOW_RESPONSE', () => {
    const base = { KAFKA_BROKERS: 'kafka:9092', DATABASE_URL: 'postgres://p@db/pix' };
    expect(loadNotifierConfig(base).delivery).toMatchObject({ maxBatch: 50, maxInFlightPerKey: 8, slowResponseMs: 1000 });
    expect(loadNotifierConfig({ ...base, WEBHOOK_MAX_BATCH: '1', WEBHOOK_MAX_IN_FLIGHT_PER_KEY: '16', WEBHOOK_SLOW_RESPONSE: '250ms' }).delivery).toMatchObject({ maxBatch: 1, maxInFlightPerKey: 16, slowResponseMs: 250 });
    for (const bad of ['0', '1001', '10x', '-1']) expect(() => loadNotifierConfig({ ...base, WEBHOOK_MAX_BATCH: bad })).toThrow(/WEBHOOK_MAX_BATCH must be an integer from 1 to 1000/);
  });
  it('rejects bad values with a message each', () => {
    expect(() => loadNotifierConfig({ NOTIFIER_PORT: 'x', KAFKA_BROKERS: 'kafka', WEBHOOK_SIGNING_SECRET: 'plain' })).toThrow(
      /NOTIFIER_PORT[\s\S]*KAFKA_BROKERS[\s\S]*DATABASE_URL[\s\S]*WEBHOOK_SIGNING_SECRET/,
    );
  });
  it('refuses a blank NOTIFIER_GROUP_ID rather than falling back to pix-notifier', () => {
    const base = { KAFKA_BROKERS: 'kafka:9092', DATABASE_URL: 'postgres://p@db/pix' };
    for (const bad of ['', ' ']) expect(() => loadNotifierConfig({ ...base, NOTIFIER_GROUP_ID: bad })).toThrow(/NOTIFIER_GROUP_ID must be 1 to 249 letters/);
    expect(loadNotifierConfig({ ...base, NOTIFIER_GROUP_ID: 'pix-notifier-b' }).groupId).toBe('pix-notifier-b');
  });
  it('reports zero durations and a padding-only signing secret in the Invalid configuration message (exit 2), not as a stack trace', () => {
    const base = { KAFKA_BROKERS: 'kafka:9092', DATABASE_URL: 'postgres://p@db/pix' };
    expect(() => loadNotifierConfig({ ...base, WEBHOOK_POLL: '0s', WEBHOOK_TIMEOUT: '0s', WEBHOOK_SIGNING_SECRET: 'whsec_AAAA============' })).toThrow(
      /^Invalid configuration:\n  - WEBHOOK_TIMEOUT[\s\S]*WEBHOOK_POLL[\s\S]*WEBHOOK_SIGNING_SECRET/,
    );
  });
});

describe('notifier configuration: settings named, not guessed', () => {
  const base = { KAFKA_BROKERS: 'kafka:9092', DATABASE_URL: 'postgres://p@db/pix' };
  it('refuses KAFKA_BROKERS=none (the API\'s explicit "no settlement"): the notifier has nothing to do without a broker', () => {
    expect(() => loadNotifierConfig({ ...base, KAFKA_BROKERS: 'none' })).toThrow(/KAFKA_BROKERS is required/);
    expect(() => loadNotifierConfig({ ...base, KAFKA_BROKERS: 'none' })).not.toThrow(/is not host:port/);
  });
  it('validates HOST with the other settings', () => {
    expect(() => loadNotifierConfig({ ...base, HOST: 'not a host!' })).toThrow(/HOST must be a host name or IP address/);
    expect(loadNotifierConfig({ ...base, HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
  });
});
