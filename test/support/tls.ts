import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Pki {
  dir: string;
  file(name: string): string;
  pem(name: string): Buffer;
  remove(): void;
}

/**
 * A throw-away PKI made with the openssl CLI in a temp dir: `ca.crt`, `server.crt` (127.0.0.1 and
 * localhost), a certificate per name in `clients` signed by the CA, and one per name in
 * `selfSigned` that no CA signed (each `<name>.crt` with `<name>.key`).
 */
export function makePki(clients: string[], selfSigned: string[] = []): Pki {
  if (spawnSync('openssl', ['version']).status !== 0) throw new Error('these tests need the openssl CLI on PATH');
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-pki-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl('req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=pix test CA');
  writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  writeFileSync(path.join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  for (const [name, ext] of [['server', 'server'], ...clients.map((c) => [c, 'client'])]) {
    ssl('req', ...key, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    ssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '2', '-extfile', `${ext}.ext`);
  }
  for (const name of selfSigned) ssl('req', '-x509', ...key, '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '2', '-subj', `/CN=${name}`, '-addext', 'extendedKeyUsage=clientAuth');
  const file = (name: string) => path.join(dir, name);
  return { dir, file, pem: (name) => readFileSync(file(name)), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export type HttpsOutcome = { status: number; headers: Record<string, unknown>; body: string } | { error: NodeJS.ErrnoException };

/** One request on a fresh connection (so a full handshake each time); a refusal is an outcome, not a throw. */
export function httpsCall(port: number, method: string, urlPath: string, tls: https.RequestOptions, headers: Record<string, string> = {}, body?: string): Promise<HttpsOutcome> {
  return new Promise((resolve) => {
    const request = https.request({ host: '127.0.0.1', port, path: urlPath, method, headers, agent: false, timeout: 5000, ...tls }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (c) => (text += c));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      response.on('error', (error) => resolve({ error }));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error) => resolve({ error }));
    request.end(body);
  });
}
