import { rmSync } from 'node:fs';
import { outcome, refusal, variablesRead, without } from '@pix/testing';
import { loadAdminConfig, loadConfig, loadDeadLettersConfig } from './config';
import { makePayloadKeyFiles, productionEnv } from './payload-keys.fixture';

type Env = Record<string, string | undefined>;
type Load = (env: Env) => unknown;

// Every setting each loader reads, found by what it reads rather than listed by hand (ADR 18).
describe('a setting set to the empty string is unset, in every loader', () => {
  const keys = makePayloadKeyFiles();
  afterAll(() => rmSync(keys.dir, { recursive: true, force: true }));
  const loaders: { what: string; load: Load; base: () => Env }[] = [
    { what: 'the API in local mode', load: loadConfig, base: () => ({}) },
    { what: 'the API in local mode with Kafka', load: loadConfig, base: () => ({ KAFKA_BROKERS: 'kafka:9092' }) },
    { what: 'the API in production', load: loadConfig, base: () => productionEnv(keys) },
    { what: 'npm run admin', load: loadAdminConfig, base: () => ({}) },
    { what: 'npm run admin in production', load: loadAdminConfig, base: () => ({ MODE: 'production', DATABASE_URL: 'postgres://p@db/pix' }) },
    { what: 'npm run dead-letters', load: loadDeadLettersConfig, base: () => ({ KAFKA_BROKERS: 'kafka:9092' }) },
  ];
  // The exception: an empty group id would share the default group's offsets (loadConsumerGroupId).
  const GROUP_IDS = ['SETTLEMENT_GROUP_ID', 'NOTIFIER_GROUP_ID'];

  it.each(loaders)('$what: each setting it reads, set to "", loads as if unset', ({ load, base }) => {
    const names = variablesRead(load, base()).filter((name) => !GROUP_IDS.includes(name));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect([name, outcome(load, { ...base(), [name]: '' })]).toEqual([name, outcome(load, without(base(), name))]);
  });

  it('refuses empty group ids by name', () => {
    for (const name of GROUP_IDS) expect(refusal(loadConfig, { KAFKA_BROKERS: 'kafka:9092', [name]: '' })).toMatch(new RegExp(`${name} must be 1 to 249 letters`));
  });

  it('DATA_DIR: empty is ./data, as unset; surrounding spaces are refused by name, not taken as a folder', () => {
    expect(loadConfig({ DATA_DIR: '' }).dataDir).toBe('./data');
    expect(loadAdminConfig({ DATA_DIR: '' }).dataDir).toBe('./data');
    for (const load of [loadConfig, loadAdminConfig] as Load[])
      for (const bad of [' ', ' data', 'data ']) expect(refusal(load, { DATA_DIR: bad })).toContain(`DATA_DIR must be a folder's path without surrounding spaces, got "${bad}"`);
    expect(loadConfig({ DATA_DIR: '/var/lib/pix data' }).dataDir).toBe('/var/lib/pix data');
  });
});
