import { readFileSync } from 'node:fs';
import path from 'node:path';
import { misspeltSettings, recordingReads } from '@pix/observability';
import { loadNotifierConfig } from './config';

/** Every upper-case name the README writes as code: the settings of both apps, and a few others. */
const documented = [...new Set(readFileSync(path.join(__dirname, '../../../README.md'), 'utf8').match(/(?<=`)[A-Z][A-Z0-9]*(_[A-Z0-9]+)+(?=`)|(?<=`)(PORT|HOST|MODE)(?=`)/g))];

function warnings(env: Record<string, string>) {
  const recorded = recordingReads(env);
  try {
    loadNotifierConfig(recorded.env);
  } catch {
    // Refused values are the loader's own messages; what it read is what counts here.
  }
  return misspeltSettings(env, recorded.read).map((m) => `${m.name}→${m.meant}`);
}

describe('notifier start-up: settings that are read nowhere', () => {
  it('takes no documented name (its own or the API’s, in a shared environment) for a typo', () => {
    expect(documented.length).toBeGreaterThan(40);
    expect(warnings(Object.fromEntries(documented.map((n) => [n, '1'])))).toEqual([]);
  });

  it('names a misspelt setting and the setting it looks like', () => {
    expect(warnings({ WEBHOOK_POLL_MS: '50', NOTIFIER_GROUPID: 'g', WEBHOOK_MAX_BATCHES: '10' })).toEqual([
      'WEBHOOK_POLL_MS→WEBHOOK_POLL',
      'NOTIFIER_GROUPID→NOTIFIER_GROUP_ID',
      'WEBHOOK_MAX_BATCHES→WEBHOOK_MAX_BATCH',
    ]);
  });
});
