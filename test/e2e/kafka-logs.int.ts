import { Writable } from 'node:stream';
import { Logger } from '@nestjs/common';
import { createKafka, KafkaLogs } from '@pix/messaging-kafka';
import { AppLogger } from '@pix/observability';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { freePort, startApiProcess } from '../support/api-process';
import { kafkaBrokers } from '../support/kafka-client';
import { startNotifierProcess } from '../support/notifier-process';

jest.setTimeout(120_000);

const UNREACHABLE = ['127.0.0.1:1'];
const QUICK = { retries: 3, initialRetryTime: 50, maxRetryTime: 100 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The project's JSON line schema (README, Logs; observability.int.ts checks the same). */
function expectSchema(line: string, service: string): Record<string, unknown> {
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(line) as Record<string, unknown>;
  } catch {
    throw new Error(`not a JSON line: ${line}`);
  }
  expect({ line, time: typeof p.time === 'string' && new Date(p.time).toISOString() === p.time }).toEqual({ line, time: true });
  expect({ line, level: ['debug', 'info', 'warn', 'error', 'fatal'].includes(p.level as string) }).toEqual({ line, level: true });
  expect({ line, msg: typeof p.msg, service: p.service }).toEqual({ line, msg: 'string', service });
  return p;
}

/**
 * kafkajs wrote its own JSON (`"level":"ERROR"`, `timestamp`, `message`, no `service`), two lines
 * per retry per client while the broker was away, and went on after the app said it had stopped.
 */
describe("kafkajs's lines in the project's log schema", () => {
  const captured: string[] = [];
  const written: string[] = [];
  let restore: () => void;

  beforeAll(() => {
    const destination = new Writable({ write: (chunk, _enc, done) => (captured.push(...String(chunk).split('\n').filter(Boolean)), done()) });
    Logger.overrideLogger(new AppLogger({ format: 'json', level: 'info', base: { service: 'test-kafka-logs' }, destination }));
    // Anything written past the app's logger (kafkajs's own console logger) is caught here.
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => jest.spyOn(console, m).mockImplementation((...args) => void written.push(args.join(' '))));
    restore = () => spies.forEach((s) => s.mockRestore());
  });
  afterAll(() => restore());

  it('a client that cannot reach its broker logs through the app, repeats counted, not written', async () => {
    captured.length = 0;
    const kafka = createKafka(UNREACHABLE, 'test-kafka-logs', QUICK);
    const producer = kafka.producer();
    const admin = kafka.admin();
    const consumer = kafka.consumer({ groupId: `test-kafka-logs-${Date.now()}` });
    await expect(producer.connect()).rejects.toThrow();
    await expect(admin.connect()).rejects.toThrow();
    await expect(consumer.connect()).rejects.toThrow();
    await sleep(50);
    expect(written).toEqual([]);
    const lines = captured.map((l) => expectSchema(l, 'test-kafka-logs'));
    expect(lines.some((p) => p.context === 'kafkajs' && p.level === 'error' && /ECONNREFUSED 127\.0\.0\.1:1/.test(p.msg as string))).toBe(true);
    // 3 clients × 4 attempts × 2 lines before; each distinct line once a minute now.
    expect(lines.length).toBeLessThanOrEqual(4);
  });

  it('after close, a client still retrying in the background logs nothing', async () => {
    captured.length = 0;
    const logs = new KafkaLogs();
    const producer = createKafka(UNREACHABLE, 'test-kafka-logs-closed', { retries: 50, initialRetryTime: 50, maxRetryTime: 100 }, logs).producer();
    const connecting = producer.connect().catch(() => undefined);
    for (const deadline = Date.now() + 5000; captured.length === 0 && Date.now() < deadline; ) await sleep(20);
    expect(captured.length).toBeGreaterThan(0);
    logs.close();
    const before = captured.length;
    await sleep(1500); // kafkajs retries every 50-100 ms meanwhile
    expect(captured.length).toBe(before);
    await producer.disconnect();
    await connecting;
  });

  const brokers = kafkaBrokers();
  (brokers ? it : it.skip)('a producer and a consumer on the real broker log nothing outside the schema', async () => {
    captured.length = 0;
    const logs = new KafkaLogs();
    const kafka = createKafka(brokers!, 'test-kafka-logs-real', QUICK, logs);
    const topic = `test-kafka-logs-${Date.now().toString(36)}`;
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1 }] });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: [{ key: 'k', value: 'v' }] });
    const consumer = kafka.consumer({ groupId: topic });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    let got = 0;
    await consumer.run({ eachMessage: async () => void got++ });
    for (const deadline = Date.now() + 30_000; got === 0 && Date.now() < deadline; ) await sleep(100);
    expect(got).toBe(1);
    await consumer.disconnect();
    await producer.disconnect();
    await admin.deleteGroups([topic]).catch(() => undefined);
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
    logs.close();
    expect(written).toEqual([]);
    for (const l of captured) expectSchema(l, 'test-kafka-logs');
  });
});

/** The apps as production runs them, with a broker that never answers: every line in the schema, none after the last. */
describe('the apps with an unreachable broker', () => {
  let db: TestDatabase;
  beforeAll(async () => void (db = await createTestDatabase('kafka_logs')), 60_000);
  afterAll(async () => db?.drop());

  const check = (output: string, service: string, last: RegExp) => {
    const lines = output.split('\n').filter((l) => l.trim() !== '');
    const parsed = lines.map((l) => expectSchema(l, service));
    expect(parsed.filter((p) => p.context === 'kafkajs').length).toBeGreaterThan(0);
    expect(parsed[parsed.length - 1].msg).toMatch(last);
    // No secret of the test's client in kafkajs's lines either (they go through the scrubber).
    return parsed;
  };

  it('the API', async () => {
    const api = await startApiProcess(db.url, await freePort(), { KAFKA_BROKERS: UNREACHABLE.join(',') }, undefined, false, '/health/live');
    for (const deadline = Date.now() + 20_000; !api.output().includes('kafkajs') && Date.now() < deadline; ) await sleep(200);
    await sleep(2000); // a few retries more
    await api.kill('SIGTERM');
    check(api.output(), 'pix-api', /^stopped cleanly/);
  });

  it('the notifier', async () => {
    const notifier = await startNotifierProcess({ DATABASE_URL: db.url, KAFKA_BROKERS: UNREACHABLE.join(','), NOTIFIER_PORT: String(await freePort()) }, false, '/health/live');
    for (const deadline = Date.now() + 20_000; !notifier.output().includes('kafkajs') && Date.now() < deadline; ) await sleep(200);
    await sleep(2000);
    await notifier.kill('SIGTERM');
    check(notifier.output(), 'pix-notifier', /^stopped cleanly/);
  });
});
