import { integerSettings, NOT_DECIMAL_INTEGERS, refusal } from '@pix/testing';
import { loadNotifierConfig } from './config';

// Every integer setting of the notifier, found by what its loader does (see the API's
// integer-settings.spec.ts): NOTIFIER_PORT=0x10 listened on port 16 and 1e3 on 1000.
describe('notifier integer settings: decimal digits only, refused by name otherwise', () => {
  const base = () => ({ KAFKA_BROKERS: 'kafka:9092', DATABASE_URL: 'postgres://p@db/pix' });

  it('finds them (at least the known ones)', () => {
    expect(integerSettings(loadNotifierConfig, base())).toEqual(expect.arrayContaining(['NOTIFIER_PORT', 'SHUTDOWN_DRAIN_MS', 'WEBHOOK_MAX_BATCH', 'WEBHOOK_MAX_IN_FLIGHT_PER_KEY']));
  });

  it('refuses hexadecimal, exponents, fractions, spaces and signs in each, in one line naming it', () => {
    const wrong: string[] = [];
    for (const name of integerSettings(loadNotifierConfig, base()))
      for (const value of NOT_DECIMAL_INTEGERS) {
        const said = refusal(loadNotifierConfig, { ...base(), [name]: value });
        const line = new RegExp(`^  - ${name} must be an integer from \\d+ to \\d+, got "${value.replace(/[.+]/g, '\\$&')}"$`, 'm');
        if (!said || !line.test(said)) wrong.push(`${name}=${JSON.stringify(value)}: ${said ?? 'accepted'}`);
      }
    expect(wrong).toEqual([]);
  });

  it('empty is the documented default, as unset is (NOTIFIER_PORT="" listened on a random port)', () => {
    for (const name of integerSettings(loadNotifierConfig, base())) expect([name, loadNotifierConfig({ ...base(), [name]: '' })]).toEqual([name, loadNotifierConfig(base())]);
    expect(loadNotifierConfig({ ...base(), NOTIFIER_PORT: '' }).port).toBe(8081);
  });
});
