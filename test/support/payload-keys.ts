import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

let made: { dir: string; env: Record<string, string> } | undefined;

/**
 * PAYLOAD_SIGNING_KEY_FILE and _CERT_FILE for production-mode tests (production requires them):
 * an RSA 2048 key and a self-signed certificate made once per test process with the openssl CLI.
 */
export function testPayloadSigningEnv(): Record<string, string> {
  if (!made) {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-payload-keys-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'payload.key', '-out', 'payload.crt', '-days', '2', '-subj', '/CN=localhost'], { cwd: dir, stdio: 'pipe' });
    made = { dir, env: { PAYLOAD_SIGNING_KEY_FILE: path.join(dir, 'payload.key'), PAYLOAD_SIGNING_CERT_FILE: path.join(dir, 'payload.crt') } };
    const dir0 = dir;
    process.once('exit', () => rmSync(dir0, { recursive: true, force: true }));
  }
  return made.env;
}
