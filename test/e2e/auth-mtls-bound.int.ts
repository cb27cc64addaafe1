import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeJwt } from 'jose';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { newTxid, startApi, type RunningApi } from '../support/api-harness';
import { TEST_CLIENT, TEST_TOKEN_KEY } from '../support/api-process';

// RFC 8705 certificate-bound tokens over real mTLS: the API (production mode) serves HTTPS and
// requires client certificates from a throw-away CA (openssl CLI, temp dir). A token carries the
// SHA-256 thumbprint of the certificate it was issued over; on another connection it is useless
// unless that connection presents the same certificate.
jest.setTimeout(60_000);

function pki() {
  if (spawnSync('openssl', ['version']).status !== 0) throw new Error('this test needs the openssl CLI on PATH');
  const dir = mkdtempSync(path.join(tmpdir(), 'auth-mtls-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl('req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=auth test CA');
  writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  writeFileSync(path.join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  for (const [name, ext] of [['server', 'server'], ['alice', 'client'], ['bob', 'client']] as const) {
    ssl('req', ...key, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    ssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '2', '-extfile', `${ext}.ext`);
  }
  const file = (name: string) => path.join(dir, name);
  return { dir, file, pem: (name: string) => readFileSync(file(name)) };
}

function send(port: number, method: string, urlPath: string, tls: https.RequestOptions, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const request = https.request({ host: '127.0.0.1', port, path: urlPath, method, agent: false, timeout: 5000, headers, ...tls }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (c) => (text += c));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.end(body);
  });
}

describe('certificate-bound access tokens (RFC 8705) over mTLS', () => {
  let certs: ReturnType<typeof pki>;
  let db: TestDatabase;
  let api: RunningApi;
  let port: number;
  const as = (name: 'alice' | 'bob'): https.RequestOptions => ({ ca: certs.pem('ca.crt'), cert: certs.pem(`${name}.crt`), key: certs.pem(`${name}.key`) });
  const basic = `Basic ${Buffer.from(`${TEST_CLIENT.clientId}:${TEST_CLIENT.secret}`).toString('base64')}`;
  const tokenOver = async (name: 'alice' | 'bob') => {
    const res = await send(port, 'POST', '/oauth/token', as(name), { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials');
    expect(res.status).toBe(200);
    return (JSON.parse(res.body) as { access_token: string }).access_token;
  };
  const thumbprint = (name: string) => createHash('sha256').update(new X509Certificate(certs.pem(`${name}.crt`)).raw).digest('base64url');

  beforeAll(async () => {
    certs = pki();
    db = await createTestDatabase('auth_mtls');
    api = await startApi({
      db,
      env: {
        MODE: 'production',
        AUTH_TOKEN_KEY: TEST_TOKEN_KEY,
        DATABASE_URL: db.url,
        TLS_CERT_FILE: certs.file('server.crt'),
        TLS_KEY_FILE: certs.file('server.key'),
        TLS_CLIENT_CA_FILE: certs.file('ca.crt'),
        AUTH_CERTIFICATE_BOUND_TOKENS: 'true',
      },
    });
    port = Number(new URL(api.baseUrl).port);
  });
  afterAll(async () => {
    await api?.stop();
    await db?.drop();
    if (certs) rmSync(certs.dir, { recursive: true, force: true });
  });

  it('binds the token to the certificate it was requested over (cnf x5t#S256)', async () => {
    const token = await tokenOver('alice');
    expect(decodeJwt(token)).toMatchObject({ sub: TEST_CLIENT.clientId, cnf: { 'x5t#S256': thumbprint('alice') } });
    expect(thumbprint('alice')).not.toBe(thumbprint('bob'));
    const res = await send(port, 'GET', `/v2/cobv/${newTxid('mtls')}`, as('alice'), { authorization: `Bearer ${token}` });
    expect(res.status).toBe(404);
  });

  it('refuses the token over a connection with another (valid) client certificate: 401 invalid_token', async () => {
    const token = await tokenOver('alice');
    const res = await send(port, 'GET', `/v2/cobv/${newTxid('mtls')}`, as('bob'), { authorization: `Bearer ${token}` });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="pix", error="invalid_token"');
    expect(JSON.parse(res.body)).toMatchObject({ type: 'about:blank', title: 'Unauthorized', status: 401 });
    expect((await send(port, 'GET', `/v2/cobv/${newTxid('mtls')}`, as('bob'), { authorization: `Bearer ${await tokenOver('bob')}` })).status).toBe(404);
  });
});
