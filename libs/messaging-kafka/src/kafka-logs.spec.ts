import { logLevel } from 'kafkajs';
import { KafkaLogs } from './kafka-logs';

describe('kafkajs lines through the app (KafkaLogs)', () => {
  const setUp = () => {
    const lines: [string, string, string?][] = [];
    let now = 0;
    const logs = new KafkaLogs(
      { error: (m, s) => lines.push(['error', m, s]), warn: (m) => lines.push(['warn', m]), log: (m) => lines.push(['info', m]), debug: (m) => lines.push(['debug', m]) },
      60_000,
      () => now,
    );
    const log = logs.logCreator(logLevel.DEBUG);
    const entry = (level: logLevel, message: string, extra: Record<string, unknown> = {}) =>
      log({ namespace: 'Connection', level, label: 'x', log: { timestamp: 'now', logger: 'kafkajs', message, ...extra } });
    return { logs, lines, entry, at: (ms: number) => (now = ms) };
  };

  it('maps the levels and names the client and broker when the message does not', () => {
    const { lines, entry } = setUp();
    entry(logLevel.ERROR, 'Connection error: refused', { broker: 'b:1', clientId: 'pix-api', stack: 'Error: x\n    at y', retryCount: 3 });
    entry(logLevel.WARN, 'w');
    entry(logLevel.INFO, 'i');
    entry(logLevel.DEBUG, 'd');
    expect(lines).toEqual([
      ['error', '[Connection] Connection error: refused (broker b:1, clientId pix-api)', 'Error: x\n    at y'],
      ['warn', '[Connection] w'],
      ['info', '[Connection] i'],
      ['debug', '[Connection] d'],
    ]);
  });

  it('a failed response (which kafkajs retries, or throws to the app) is a warning, not an error', () => {
    const { lines, entry } = setUp();
    entry(logLevel.ERROR, 'Response GroupCoordinator(key: 10, version: 2)', { broker: 'b:1', clientId: 'pix-notifier', error: 'The group coordinator is not available', correlationId: 3 });
    expect(lines).toEqual([['warn', '[Connection] Response GroupCoordinator(key: 10, version: 2) (broker b:1, clientId pix-notifier, error The group coordinator is not available)']]);
  });

  it('writes a repeated line once a minute, with the count of its repeats', () => {
    const { lines, entry, at } = setUp();
    for (let i = 0; i < 50; i++) {
      at(i * 1000);
      entry(logLevel.ERROR, 'refused');
    }
    expect(lines).toHaveLength(1);
    at(60_000);
    entry(logLevel.ERROR, 'refused');
    expect(lines.map((l) => l[1])).toEqual(['[Connection] refused', '[Connection] refused (49 more like it in the last 60 s)']);
  });

  it('writes nothing once closed', () => {
    const { logs, lines, entry } = setUp();
    logs.close();
    entry(logLevel.ERROR, 'refused');
    expect(lines).toEqual([]);
  });
});
