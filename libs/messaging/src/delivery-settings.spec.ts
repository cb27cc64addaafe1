import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadDeliverySettings } from './delivery-settings';

const problemsFor = (env: Record<string, string>) => {
  const problems: string[] = [];
  const config = loadDeliverySettings(env, problems);
  return { problems, config };
};

describe('webhook delivery settings: every bad value is a named problem, none throws', () => {
  it.each([
    ['WEBHOOK_POLL', '0s'],
    ['WEBHOOK_POLL', '2m'],
    ['WEBHOOK_TIMEOUT', '0s'],
    ['WEBHOOK_TIMEOUT', '0ms'],
    ['WEBHOOK_TIMEOUT', '100d'],
    ['WEBHOOK_TIMEOUT', ''],
    ['WEBHOOK_SLOW_RESPONSE', '0s'],
  ])('%s=%p is refused by name', (name, value) => {
    const { problems } = problemsFor({ [name]: value });
    expect(problems).toEqual([expect.stringMatching(new RegExp(`^${name}`))]);
  });

  it('accepts durations inside the bounds', () => {
    const { problems, config } = problemsFor({ WEBHOOK_POLL: '1m', WEBHOOK_TIMEOUT: '10m', WEBHOOK_SLOW_RESPONSE: '1ms' });
    expect(problems).toEqual([]);
    expect(config).toMatchObject({ pollMs: 60_000, timeoutMs: 600_000, slowResponseMs: 1 });
  });

  it('refuses an empty or gapped WEBHOOK_RETRY_SCHEDULE (unset keeps the default)', () => {
    expect(problemsFor({ WEBHOOK_RETRY_SCHEDULE: '' }).problems).toEqual([expect.stringMatching(/^WEBHOOK_RETRY_SCHEDULE/)]);
    expect(problemsFor({ WEBHOOK_RETRY_SCHEDULE: '5s,,1m' }).problems).toEqual([expect.stringMatching(/^WEBHOOK_RETRY_SCHEDULE/)]);
    expect(problemsFor({ WEBHOOK_RETRY_SCHEDULE: '5s, 1m' }).config.schedule).toEqual([5000, 60_000]);
  });

  it('refuses a signing secret that is padding or decodes to fewer than 16 bytes', () => {
    for (const secret of ['whsec_================', 'whsec_AAAA============', `whsec_${Buffer.alloc(15).toString('base64')}`]) {
      expect(problemsFor({ WEBHOOK_SIGNING_SECRET: secret }).problems).toEqual([expect.stringMatching(/^WEBHOOK_SIGNING_SECRET/)]);
    }
    const good = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect(problemsFor({ WEBHOOK_SIGNING_SECRET: good })).toMatchObject({ problems: [], config: { signingSecret: good } });
  });

  describe('PEM files', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-delivery-tls-spec-'));
    const file = (name: string) => path.join(dir, name);
    beforeAll(() => {
      const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
      for (const name of ['a', 'b']) ssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '2', '-subj', `/CN=${name}`);
      writeFileSync(file('not-pem.js'), 'console.log("hello")\n');
      writeFileSync(file('broken.crt'), '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    });

    it('refuses a WEBHOOK_CA without a certificate, or with one that does not parse', () => {
      expect(problemsFor({ WEBHOOK_CA: file('not-pem.js') }).problems).toEqual([expect.stringMatching(/^WEBHOOK_CA: .* holds no PEM certificate/)]);
      expect(problemsFor({ WEBHOOK_CA: file('broken.crt') }).problems).toEqual([expect.stringMatching(/^WEBHOOK_CA: .* does not parse/)]);
    });

    it('refuses a client certificate or key that is not one, and a pair that does not match', () => {
      expect(problemsFor({ WEBHOOK_CLIENT_CERT: file('a.key'), WEBHOOK_CLIENT_KEY: file('a.key') }).problems).toEqual([expect.stringMatching(/^WEBHOOK_CLIENT_CERT/)]);
      expect(problemsFor({ WEBHOOK_CLIENT_CERT: file('a.crt'), WEBHOOK_CLIENT_KEY: file('not-pem.js') }).problems).toEqual([expect.stringMatching(/^WEBHOOK_CLIENT_KEY/)]);
      expect(problemsFor({ WEBHOOK_CLIENT_CERT: file('a.crt'), WEBHOOK_CLIENT_KEY: file('b.key') }).problems).toEqual([expect.stringMatching(/^WEBHOOK_CLIENT_KEY does not match/)]);
      expect(problemsFor({ WEBHOOK_CLIENT_CERT: file('a.crt') }).problems).toEqual(['WEBHOOK_CLIENT_CERT and WEBHOOK_CLIENT_KEY go together']);
    });

    it('accepts a matching pair and a CA bundle', () => {
      const { problems, config } = problemsFor({ WEBHOOK_CLIENT_CERT: file('a.crt'), WEBHOOK_CLIENT_KEY: file('a.key'), WEBHOOK_CA: file('b.crt') });
      expect(problems).toEqual([]);
      expect(Object.keys(config.tls ?? {}).sort()).toEqual(['ca', 'cert', 'key']);
    });
  });
});
