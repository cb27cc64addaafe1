import { documentedNames, misspeltUnder } from '@pix/testing';
import { loadConfig } from './config';

const warnings = (env: Record<string, string>) => misspeltUnder(loadConfig, env);

describe('API start-up: settings that are read nowhere', () => {
  it.each(['local', 'production'])('takes no name the README documents (either app’s) for a typo in %s mode', (mode) => {
    const documented = documentedNames();
    expect(documented.length).toBeGreaterThan(40);
    expect(warnings({ ...Object.fromEntries(documented.map((n) => [n, '1'])), MODE: mode })).toEqual([]);
  });

  it('names a misspelt setting and the setting it looks like', () => {
    expect(warnings({ MODE: 'local', WEBHOOK_POLL_MS: '50', KAFKA_BROKER: 'k:9092', RATE_LIMIT_PER_SECONDS: '5' })).toEqual([
      'WEBHOOK_POLL_MS→WEBHOOK_POLL',
      'KAFKA_BROKER→KAFKA_BROKERS',
      'RATE_LIMIT_PER_SECONDS→RATE_LIMIT_PER_SECOND',
    ]);
  });
});
