import { readFileSync } from 'node:fs';
import path from 'node:path';
import { misspeltSettings, recordingReads } from '@pix/observability';
import { loadConfig } from './config';

/** Every upper-case name the README writes as code: the settings it documents, and a few others. */
const documented = [...new Set(readFileSync(path.join(__dirname, '../../../../README.md'), 'utf8').match(/(?<=`)[A-Z][A-Z0-9]*(_[A-Z0-9]+)+(?=`)|(?<=`)(PORT|HOST|MODE)(?=`)/g))];

/** What the API's start-up would warn about for `env`, whether or not the values pass. */
function warnings(env: Record<string, string>) {
  const recorded = recordingReads(env);
  try {
    loadConfig(recorded.env);
  } catch {
    // Refused values are the loader's own messages; what it read is what counts here.
  }
  return misspeltSettings(env, recorded.read).map((m) => `${m.name}→${m.meant}`);
}

describe('API start-up: settings that are read nowhere', () => {
  it('knows the README documents settings (the list below is not empty)', () => expect(documented.length).toBeGreaterThan(40));

  it.each(['local', 'production'])('takes no documented name for a typo in %s mode', (mode) => {
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
