import type https from 'node:https';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { startApi, type RunningApi } from '../support/api-harness';
import { httpsCall, makePki, type Pki } from '../support/tls';

// The API in production mode serving HTTPS itself, with and without client certificates
// required (mTLS). Certificates come from the openssl CLI in a temp dir; requests go through
// node:https directly, each on a fresh connection (so each one is a full handshake).

// The receiver and client the harness registers come with production mode.
const PRODUCTION = { MODE: 'production' };

const get = (port: number, urlPath: string, tls: https.RequestOptions) => httpsCall(port, 'GET', urlPath, tls);

const portOf = (api: RunningApi) => Number(new URL(api.baseUrl).port);
/** How a TLS server says no: a handshake alert, or the connection closed before any HTTP. */
const REFUSED = /alert|certificate|ECONNRESET|EPIPE|socket hang up/i;

describe('mTLS: client certificate required (production)', () => {
  let pki: Pki;
  let db: TestDatabase;
  let api: RunningApi;
  let port: number;
  let trusted: https.RequestOptions;

  beforeAll(async () => {
    pki = makePki(['client'], ['rogue']);
    db = await createTestDatabase('api_mtls');
    api = await startApi({
      db,
      env: { ...PRODUCTION, TLS_CERT_FILE: pki.file('server.crt'), TLS_KEY_FILE: pki.file('server.key'), TLS_CLIENT_CA_FILE: pki.file('ca.crt') },
    });
    port = portOf(api);
    trusted = { ca: pki.pem('ca.crt'), cert: pki.pem('client.crt'), key: pki.pem('client.key') };
  });
  afterAll(async () => {
    await api?.stop();
    await db?.drop();
    pki?.remove();
  });

  it('a client certificate signed by the CA reaches /health over HTTPS, with HSTS', async () => {
    const res = await get(port, '/health', trusted);
    expect(res).toMatchObject({ status: 200 });
    if ('status' in res) {
      expect(JSON.parse(res.body)).toMatchObject({ status: 'ok' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    }
  });

  it('the same client gets an HTTP answer from the API: 401 problem without a token', async () => {
    const res = await get(port, '/v2/cobv/abcdefghijklmnopqrstuvwxyz12345', trusted);
    expect(res).toMatchObject({ status: 401, headers: { 'content-type': expect.stringMatching(/^application\/problem\+json/) } });
  });

  // TLS 1.3 reports the refusal after the client's side of the handshake (an alert or a reset);
  // TLS 1.2 before the handshake completes. Both are tried; the server stays up for others.
  it('over mTLS, a token from POST /oauth/token opens the API', async () => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: api.client.clientId, client_secret: api.client.secret }).toString();
    const issued = await httpsCall(port, 'POST', '/oauth/token', trusted, { 'content-type': 'application/x-www-form-urlencoded' }, form);
    expect(issued).toMatchObject({ status: 200 });
    const token = 'body' in issued ? (JSON.parse(issued.body) as { access_token: string }).access_token : '';
    const res = await httpsCall(port, 'GET', '/v2/cobv/abcdefghijklmnopqrstuvwxyz12345', trusted, { authorization: `Bearer ${token}` });
    expect(res).toMatchObject({ status: 404 });
    expect('body' in res && JSON.parse(res.body).type).toBe('https://pix.bcb.gov.br/api/v2/error/CobVNaoEncontrada');
  });

  it('no client certificate: refused in the TLS handshake, no HTTP answer', async () => {
    const res = await get(port, '/health', { ca: pki.pem('ca.crt') });
    expect('error' in res && res.error.message).toMatch(REFUSED);
    const tls12 = await get(port, '/health', { ca: pki.pem('ca.crt'), maxVersion: 'TLSv1.2' });
    expect('error' in tls12 && tls12.error.message).toMatch(/alert handshake failure/);
    expect(await get(port, '/health', trusted)).toMatchObject({ status: 200 });
  });

  it('a self-signed client certificate (same subject, not signed by the CA): refused', async () => {
    const rogue = { ca: pki.pem('ca.crt'), cert: pki.pem('rogue.crt'), key: pki.pem('rogue.key') };
    const res = await get(port, '/health', rogue);
    expect('error' in res && res.error.message).toMatch(REFUSED);
    const tls12 = await get(port, '/health', { ...rogue, maxVersion: 'TLSv1.2' });
    // Node checks the chain once OpenSSL is done and drops the socket before the handshake ends.
    expect('error' in tls12 && tls12.error.message).toMatch(/alert unknown ca|disconnected before secure TLS connection was established/);
    expect(await get(port, '/health', trusted)).toMatchObject({ status: 200 });
  });

  // Payers' banks fetch the payload location (ADR 11) with no certificate of ours: a connection
  // that names the location's host in SNI (LOCATION_HOST, here localhost) may come without one,
  // and is then served the location and its JWKS only.
  it('the location host (SNI) is served without a client certificate, and only /qr/', async () => {
    const payer = { ca: pki.pem('ca.crt'), servername: 'localhost' };
    const jwks = await get(port, '/qr/v2/jwks', payer);
    expect(jwks).toMatchObject({ status: 200 });
    expect('body' in jwks && JSON.parse(jwks.body).keys.length).toBeGreaterThan(0);
    const missing = await get(port, '/qr/v2/cobv/0123456789abcdef0123456789abcdef', payer);
    expect(missing).toMatchObject({ status: 404 });
    for (const [method, urlPath] of [['GET', '/health'], ['GET', '/v2/cobv/abcdefghijklmnopqrstuvwxyz12345'], ['PUT', '/v2/cobv/abcdefghijklmnopqrstuvwxyz12345'], ['POST', '/qr/v2/jwks']]) {
      const res = await httpsCall(port, method, urlPath, payer);
      expect([urlPath, 'status' in res && res.status, 'status' in res && res.headers.connection]).toEqual([urlPath, 403, 'close']);
      expect('body' in res && JSON.parse(res.body).type).toBe('https://pix.bcb.gov.br/api/v2/error/AcessoNegado');
    }
    // The token endpoint speaks OAuth2 (ADR 8) even here.
    const token = await httpsCall(port, 'POST', '/oauth/token', payer, { 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials');
    expect(token).toMatchObject({ status: 403 });
    expect('body' in token && JSON.parse(token.body).error).toBe('invalid_request');
    // With a certificate, the same host name is an ordinary connection; without SNI, none is served.
    expect(await get(port, '/health', { ...trusted, servername: 'localhost' })).toMatchObject({ status: 200 });
    const bare = await get(port, '/qr/v2/jwks', { ca: pki.pem('ca.crt') });
    expect('error' in bare && bare.error.message).toMatch(REFUSED);
  });

  it('plain HTTP on the TLS port gets no API answer', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status, (e: Error) => e.message);
    expect(res).not.toBe(200);
  });
});

describe('TLS without client certificates (production)', () => {
  let pki: Pki;
  let db: TestDatabase;
  let api: RunningApi;

  beforeAll(async () => {
    pki = makePki(['client'], ['rogue']);
    db = await createTestDatabase('api_tls');
    api = await startApi({ db, env: { ...PRODUCTION, TLS_CERT_FILE: pki.file('server.crt'), TLS_KEY_FILE: pki.file('server.key') } });
  });
  afterAll(async () => {
    await api?.stop();
    await db?.drop();
    pki?.remove();
  });

  it('serves HTTPS to a client with no certificate; a client that does not trust the server refuses it', async () => {
    const res = await get(portOf(api), '/health', { ca: pki.pem('ca.crt') });
    expect(res).toMatchObject({ status: 200, headers: { 'strict-transport-security': 'max-age=31536000' } });
    const untrusting = await get(portOf(api), '/health', {});
    expect('error' in untrusting && (untrusting.error.code ?? untrusting.error.message)).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|certificate/i);
  });
});
