import { readFileSync, rmSync } from 'node:fs';
import { ConfigError, loadConfig } from './config';
import { makePayloadKeyFiles } from './payload-keys.fixture';

const PRODUCTION = { MODE: 'production', DATABASE_URL: 'postgres://db/pix', AUTH_TOKEN_KEY: 'ab'.repeat(32), LOCATION_HOST: 'pix.example.com', KAFKA_BROKERS: 'kafka:9092' };

const problemsOf = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join('\n');
    throw error;
  }
  return '';
};

describe('payload signing configuration (ADR 11)', () => {
  const keys = makePayloadKeyFiles();
  afterAll(() => rmSync(keys.dir, { recursive: true, force: true }));

  it('requires the key and certificate in production, and reads both (leaf first)', () => {
    expect(problemsOf(PRODUCTION)).toContain('PAYLOAD_SIGNING_KEY_FILE and PAYLOAD_SIGNING_CERT_FILE are required in production mode');
    const c = loadConfig({ ...PRODUCTION, PAYLOAD_SIGNING_KEY_FILE: keys.file('current.key'), PAYLOAD_SIGNING_CERT_FILE: keys.file('current.crt') });
    expect(c.payload.signing?.keyPem).toBe(readFileSync(keys.file('current.key'), 'utf8'));
    expect(c.payload.signing?.certChainPem).toHaveLength(1);
    expect(c.payload.signing?.previousCertChainPem).toBeUndefined();
  });

  it('needs nothing in local mode (a key is made in DATA_DIR at start-up)', () => {
    expect(loadConfig({}).payload).toEqual({});
  });

  it.each([
    ['a missing file', { PAYLOAD_SIGNING_KEY_FILE: '/nonexistent/payload.key', PAYLOAD_SIGNING_CERT_FILE: 'current.crt' }, 'PAYLOAD_SIGNING_KEY_FILE: cannot read "/nonexistent/payload.key"'],
    ['a key that is not PEM', { PAYLOAD_SIGNING_KEY_FILE: 'garbage.pem', PAYLOAD_SIGNING_CERT_FILE: 'current.crt' }, 'is not a PEM private key'],
    ['a certificate that is not PEM', { PAYLOAD_SIGNING_KEY_FILE: 'current.key', PAYLOAD_SIGNING_CERT_FILE: 'garbage.pem' }, 'is not a PEM certificate chain'],
    ['an EC key (RS256 needs RSA)', { PAYLOAD_SIGNING_KEY_FILE: 'ec.key', PAYLOAD_SIGNING_CERT_FILE: 'ec.crt' }, 'must hold an RSA private key of at least 2048 bits'],
    ['a certificate of another key', { PAYLOAD_SIGNING_KEY_FILE: 'current.key', PAYLOAD_SIGNING_CERT_FILE: 'previous.crt' }, 'the first certificate is not the one of PAYLOAD_SIGNING_KEY_FILE'],
    ['a key without its certificate', { PAYLOAD_SIGNING_KEY_FILE: 'current.key' }, 'go together'],
    ['a previous certificate that is not PEM', { PAYLOAD_SIGNING_KEY_FILE: 'current.key', PAYLOAD_SIGNING_CERT_FILE: 'current.crt', PAYLOAD_SIGNING_PREVIOUS_CERT_FILE: 'garbage.pem' }, 'PAYLOAD_SIGNING_PREVIOUS_CERT_FILE'],
  ])('refuses %s with a message naming the setting', (_name, files, message) => {
    const env: Record<string, string> = { ...PRODUCTION };
    for (const [name, file] of Object.entries(files)) env[name] = file.startsWith('/') ? file : keys.file(file);
    expect(problemsOf(env)).toContain(message);
  });

  it('publishes a previous certificate while rotating', () => {
    const c = loadConfig({ ...PRODUCTION, PAYLOAD_SIGNING_KEY_FILE: keys.file('current.key'), PAYLOAD_SIGNING_CERT_FILE: keys.file('current.crt'), PAYLOAD_SIGNING_PREVIOUS_CERT_FILE: keys.file('previous.crt') });
    expect(c.payload.signing?.previousCertChainPem).toHaveLength(1);
  });

  it('takes SANDBOX_LOCATION_BASE_URL as an http(s) origin, in local mode only', () => {
    expect(loadConfig({ SANDBOX_LOCATION_BASE_URL: 'http://127.0.0.1:9000' }).payload.sandboxLocationBaseUrl).toBe('http://127.0.0.1:9000');
    expect(problemsOf({ SANDBOX_LOCATION_BASE_URL: 'http://127.0.0.1:9000/path' })).toContain('SANDBOX_LOCATION_BASE_URL must be an http(s) origin');
    expect(problemsOf({ SANDBOX_LOCATION_BASE_URL: 'ftp://x' })).toContain('SANDBOX_LOCATION_BASE_URL must be an http(s) origin');
    expect(problemsOf({ ...PRODUCTION, SANDBOX_LOCATION_BASE_URL: 'http://127.0.0.1:9000' })).toContain('SANDBOX_LOCATION_BASE_URL is for local mode');
  });
});
