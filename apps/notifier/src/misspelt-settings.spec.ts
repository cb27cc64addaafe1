import { documentedNames, misspeltUnder } from '@pix/testing';
import { loadNotifierConfig } from './config';

const warnings = (env: Record<string, string>) => misspeltUnder(loadNotifierConfig, env);

describe('notifier start-up: settings that are read nowhere', () => {
  it('takes no name the README documents (its own or the API’s, in a shared environment) for a typo', () => {
    const documented = documentedNames();
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
