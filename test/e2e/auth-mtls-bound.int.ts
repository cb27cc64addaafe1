import { createHash, X509Certificate } from 'node:crypto';
import type https from 'node:https';
import { decodeJwt } from 'jose';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { newTxid, startApi, type RunningApi } from '../support/api-harness';
import { TEST_CLIENT } from '../support/api-process';
import { httpsCall, makePki, type Pki } from '../support/tls';

// RFC 8705 certificate-bound tokens over real mTLS: the API (production mode) serves HTTPS and
// requires client certificates from a throw-away CA (openssl CLI, temp dir). A token carries the
// SHA-256 thumbprint of the certificate it was issued over; on another connection it is useless
// unless that connection presents the same certificate.
jest.setTimeout(60_000);

/** A request that must get an HTTP answer (a refused handshake fails the test). */
async function send(port: number, method: string, urlPath: string, tls: https.RequestOptions, headers: Record<string, string> = {}, body?: string) {
  const outcome = await httpsCall(port, method, urlPath, tls, headers, body);
  if ('error' in outcome) throw outcome.error;
  return outcome;
}

describe('certificate-bound access tokens (RFC 8705) over mTLS', () => {
  let certs: Pki;
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
    certs = makePki(['alice', 'bob']);
    db = await createTestDatabase('auth_mtls');
    api = await startApi({
      db,
      env: {
        MODE: 'production',
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
    certs?.remove();
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
