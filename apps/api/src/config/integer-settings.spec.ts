import { rmSync } from 'node:fs';
import { integerSettings, NOT_DECIMAL_INTEGERS, refusal } from '@pix/testing';
import { loadAdminConfig, loadConfig } from './config';
import { makePayloadKeyFiles, productionEnv } from './payload-keys.fixture';

// Every integer setting of the API and of `npm run admin`, found by what the loaders do rather
// than listed by hand: one added later with Number() (which took PORT=0x4B8D as 19341) fails here.
describe('integer settings: decimal digits only, refused by name otherwise', () => {
  const keys = makePayloadKeyFiles();
  afterAll(() => rmSync(keys.dir, { recursive: true, force: true }));
  /** Everything production requires. */
  const production = () => productionEnv(keys);
  const API = ['AUTH_CACHE_MS', 'AUTH_TOKEN_TTL_SECONDS', 'LOTECOBV_CONCURRENCY', 'LOTECOBV_MAX_REQUESTS', 'MAX_BODY_BYTES', 'PORT', 'RATE_LIMIT_BURST', 'RATE_LIMIT_PER_SECOND', 'READY_MAX_PROJECTION_LAG_SECONDS', 'SHUTDOWN_DRAIN_MS', 'WEBHOOK_MAX_BATCH', 'WEBHOOK_MAX_IN_FLIGHT_PER_KEY'];
  const loaders = [
    { what: 'the API in local mode', load: loadConfig, base: () => ({}), known: API },
    { what: 'the API in local mode with Kafka', load: loadConfig, base: () => ({ KAFKA_BROKERS: 'kafka:9092' }), known: API },
    { what: 'the API in production', load: loadConfig, base: production, known: API },
    { what: 'npm run admin', load: loadAdminConfig, base: () => ({}), known: ['AUTH_CACHE_MS'] },
  ];

  it.each(loaders)('$what: finds its integer settings (at least the known ones)', ({ load, base, known }) => {
    expect(integerSettings(load, base())).toEqual(expect.arrayContaining(known));
  });

  it.each(loaders)('$what: refuses hexadecimal, exponents, fractions, spaces and signs in each, in one line naming it', ({ load, base }) => {
    const wrong: string[] = [];
    for (const name of integerSettings(load, base()))
      for (const value of NOT_DECIMAL_INTEGERS) {
        const said = refusal(load, { ...base(), [name]: value });
        const line = new RegExp(`^  - ${name} must be an integer from \\d+ to \\d+, got "${value.replace(/[.+]/g, '\\$&')}"$`, 'm');
        if (!said || !line.test(said)) wrong.push(`${name}=${JSON.stringify(value)}: ${said ?? 'accepted'}`);
      }
    expect(wrong).toEqual([]);
  });

  it.each(loaders)('$what: empty is the documented default, as unset is', ({ load, base }) => {
    for (const name of integerSettings(load, base())) expect([name, load({ ...base(), [name]: '' })]).toEqual([name, load(base())]);
  });

  it('takes plain decimals, leading zeros included, within each range', () => {
    expect(loadConfig({ PORT: '19342', RATE_LIMIT_PER_SECOND: '016', LOTECOBV_CONCURRENCY: '10' })).toMatchObject({ port: 19342, rateLimit: { perSecond: 16 }, loteConcurrency: 10 });
    expect(refusal(loadConfig, { PORT: '65536' })).toContain('PORT must be an integer from 0 to 65535, got "65536"');
    expect(loadAdminConfig({ AUTH_CACHE_MS: '0' }).directoryCacheMs).toBe(0);
  });
});
