import { outcome, refusal, variablesRead, without } from '@pix/testing';
import { loadNotifierConfig } from './config';

type Env = Record<string, string | undefined>;

// Every setting the notifier reads, found by what it reads rather than listed by hand (ADR 18).
describe('notifier: a setting set to the empty string is unset', () => {
  const base: Env = { KAFKA_BROKERS: 'kafka:9092', DATABASE_URL: 'postgres://p@db/pix' };
  it('each setting it reads, set to "", loads as if unset; an empty group id alone is refused', () => {
    const names = variablesRead(loadNotifierConfig, base).filter((name) => name !== 'NOTIFIER_GROUP_ID');
    expect(names).toEqual(expect.arrayContaining(['WEBHOOK_RETRY_SCHEDULE', 'WEBHOOK_TIMEOUT', 'LOG_LEVEL', 'HOST']));
    for (const name of names) expect([name, outcome(loadNotifierConfig, { ...base, [name]: '' })]).toEqual([name, outcome(loadNotifierConfig, without(base, name))]);
    expect(refusal(loadNotifierConfig, { ...base, NOTIFIER_GROUP_ID: '' })).toMatch(/NOTIFIER_GROUP_ID must be 1 to 249 letters/);
  });
});
