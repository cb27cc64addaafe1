import { rmSync } from 'node:fs';
import { ConfigError, loadAdminConfig, loadConfig } from './config';
import { makePayloadKeyFiles, productionEnv } from './payload-keys.fixture';

const problemsOf = (load: () => unknown): string => {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join('\n');
    throw error;
  }
  return '';
};

// The operator audit's findings: production must not start on a setting it silently guessed.
describe('production configuration: nothing required is guessed', () => {
  const keys = makePayloadKeyFiles();
  afterAll(() => rmSync(keys.dir, { recursive: true, force: true }));
  /** Everything production requires. */
  const production = () => productionEnv(keys);

  it('starts with everything production requires', () => {
    expect(loadConfig(production())).toMatchObject({ locationHost: 'pix.example.com', kafkaBrokers: ['kafka:9092'], host: '0.0.0.0' });
  });

  it('requires LOCATION_HOST by name (unset, empty or blank): localhost:$PORT would go into every BR Code and stay there', () => {
    for (const value of [undefined, '', '  ']) {
      const text = problemsOf(() => loadConfig({ ...production(), LOCATION_HOST: value }));
      expect(text).toContain('LOCATION_HOST is required in production mode');
      expect(text).not.toContain('localhost');
    }
    // Local mode keeps its default.
    expect(loadConfig({ PORT: '8090' }).locationHost).toBe('localhost:8090');
  });

  it('requires KAFKA_BROKERS by name (unset, empty or blank); KAFKA_BROKERS=none runs without settlement on purpose', () => {
    for (const value of [undefined, '', '  ', ' , ']) expect(problemsOf(() => loadConfig({ ...production(), KAFKA_BROKERS: value }))).toContain('KAFKA_BROKERS is required in production mode');
    expect(loadConfig({ ...production(), KAFKA_BROKERS: 'none' }).kafkaBrokers).toEqual([]);
    expect(loadConfig({ KAFKA_BROKERS: 'none' }).kafkaBrokers).toEqual([]);
    expect(problemsOf(() => loadConfig({ ...production(), KAFKA_BROKERS: 'none,kafka:9092' }))).toContain('KAFKA_BROKERS: "none" is not host:port');
  });

  it('a bad PORT is reported once, as itself, not again as a LOCATION_HOST of "localhost:NaN"', () => {
    for (const port of ['abc', '-1', '70000']) {
      const problems = (() => {
        try {
          loadConfig({ PORT: port });
        } catch (error) {
          return (error as ConfigError).problems;
        }
        return [];
      })();
      expect(problems).toEqual([`PORT must be an integer from 0 to 65535, got "${port}"`]);
    }
  });

  it('validates HOST with the other settings', () => {
    for (const host of ['not a host!', ' ', 'a/b', '-x']) expect(problemsOf(() => loadConfig({ HOST: host }))).toContain('HOST must be a host name or IP address');
    for (const host of ['0.0.0.0', '127.0.0.1', '::', '::1', 'localhost', 'api.internal']) expect(loadConfig({ ...production(), HOST: host }).host).toBe(host);
  });

  it('npm run admin in production requires DATABASE_URL (never the embedded database in ./data)', () => {
    expect(problemsOf(() => loadAdminConfig({ MODE: 'production' }))).toContain('DATABASE_URL is required in production mode');
    expect(problemsOf(() => loadAdminConfig({ MODE: 'production', DATABASE_URL: '' }))).toContain('DATABASE_URL is required in production mode');
    expect(problemsOf(() => loadAdminConfig({ MODE: 'staging' }))).toContain('MODE must be "local" or "production"');
    expect(loadAdminConfig({ MODE: 'production', DATABASE_URL: 'postgres://db/pix' }).databaseUrl).toBe('postgres://db/pix');
    expect(loadAdminConfig({}).databaseUrl).toBeUndefined();
  });
});
