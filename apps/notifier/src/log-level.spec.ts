import { loadNotifierConfig } from './config';

// A README audit: LOG_LEVEL (README, Logs) was the API's only; the notifier wrote info lines
// whatever it said, and took a misspelt level without a word.
describe('notifier configuration: LOG_LEVEL', () => {
  const base = { KAFKA_BROKERS: 'kafka:9092', DATABASE_URL: 'postgres://p@db/pix' };
  it('is info by default, and what it says when set', () => {
    expect(loadNotifierConfig(base).logLevel).toBe('info');
    expect(loadNotifierConfig({ ...base, LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
  });
  it('refuses anything but debug, info, warn or error, by name', () => {
    expect(() => loadNotifierConfig({ ...base, LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL must be debug, info, warn or error, got "verbose"/);
  });
});
