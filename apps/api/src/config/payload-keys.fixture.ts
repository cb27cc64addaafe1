import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** For specs: RSA and EC keys with self-signed certificates (openssl CLI) in a temp dir. */
export function makePayloadKeyFiles(): { dir: string; file(name: string): string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-payload-spec-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  for (const name of ['current', 'previous']) ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '2', '-subj', `/CN=${name}`);
  ssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'ec.key', '-out', 'ec.crt', '-days', '2', '-subj', '/CN=ec');
  writeFileSync(path.join(dir, 'garbage.pem'), 'not a pem\n');
  return { dir, file: (name) => path.join(dir, name) };
}

/** For specs: everything production mode requires, with these key files. */
export const productionEnv = (keys: { file(name: string): string }): Record<string, string> => ({
  MODE: 'production',
  DATABASE_URL: 'postgres://db/pix',
  AUTH_TOKEN_KEY: 'ab'.repeat(32),
  PAYLOAD_SIGNING_KEY_FILE: keys.file('current.key'),
  PAYLOAD_SIGNING_CERT_FILE: keys.file('current.crt'),
  LOCATION_HOST: 'pix.example.com',
  KAFKA_BROKERS: 'kafka:9092',
});
