import { Pool } from 'pg';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { PIX_SCOPES } from '@pix/domain';
import { PostgresEventStore } from '@pix/event-store';
import { createClient, createReceiver, disableClient, rotateClientSecret } from '../../apps/api/src/access/admin/operations';
import { TokenSigner } from '../../apps/api/src/access/token/token-signer';
import { expectUnauthorizedProblem, newTxid, startApi, type RunningApi } from '../support/api-harness';
import { TEST_TOKEN_KEY } from '../support/api-process';

// POST /oauth/token (RFC 6749 client credentials) and the bearer-token guard, on a real API in
// local mode over real PostgreSQL. A second client is registered through the admin functions.
jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CACHE_MS = 400;
const ALL = PIX_SCOPES.join(' ');

describe('OAuth2 token endpoint and bearer tokens', () => {
  // The app's business clock is moved far ahead: token lifetimes follow the wall clock, not it.
  const clock = { now: () => new Date(Date.now() + 400 * 86_400_000) };
  let api: RunningApi;
  let pool: Pool;
  let store: PostgresEventStore;
  let erp: { clientId: string; secret: string };

  const token = (body: string | Record<string, string> | undefined, headers: Record<string, string> = {}) =>
    fetch(`${api.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: typeof body === 'string' ? { 'content-type': 'application/x-www-form-urlencoded', ...headers } : body ? { 'content-type': 'application/json', ...headers } : headers,
      body: typeof body === 'string' ? body : body ? JSON.stringify(body) : undefined,
    });
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const oauthError = async (res: Response, status: number, error: string) => {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ error, error_description: expect.any(String) });
  };
  const getCobv = (bearer: string) => api.request('GET', `/cobv/${newTxid('auth')}`, undefined, { authorization: `Bearer ${bearer}` });
  const expectInvalidToken = async (bearer: string) => {
    const res = await getCobv(bearer);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="pix", error="invalid_token"');
  };

  beforeAll(async () => {
    api = await startApi({ clock, env: { AUTH_CACHE_MS: String(CACHE_MS) } });
    pool = new Pool({ connectionString: api.db.url, max: 2 });
    store = await PostgresEventStore.create({ pool, listen: false });
    await createReceiver({ store }, 'loja1', { nome: 'Loja Um SA', cnpj: '12ABC34501DE35', logradouro: 'Rua A, 1', cidade: 'Campinas', uf: 'SP', cep: '13010000' });
    const created = await createClient({ store }, { recebedorId: 'loja1', clientId: 'erp-loja1', scopes: ['cobv.read', 'cobv.write', 'webhook.read'] });
    erp = { clientId: created.clientId, secret: created.secret };
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await api?.stop();
  });

  it('issues a token for HTTP Basic and a form body: RFC 6749 §5.1, HS256 JWT with sub, rid, scope, gen, iat, exp, jti', async () => {
    const res = await token('grant_type=client_credentials', { authorization: basic('sandbox', 'sandbox-secret') });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    const body = (await res.json()) as { access_token: string };
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: ALL });
    expect(decodeProtectedHeader(body.access_token)).toEqual({ alg: 'HS256', typ: 'at+jwt', kid: expect.stringMatching(/^[A-Za-z0-9_-]{12}$/) });
    const claims = decodeJwt(body.access_token);
    expect(claims).toEqual({ sub: 'sandbox', rid: 'local', scope: ALL, gen: 1, iat: expect.any(Number), exp: expect.any(Number), jti: expect.any(String) });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect((await getCobv(body.access_token)).status).toBe(404);
  });

  it('takes the credentials as form fields or as JSON too', async () => {
    const form = await token(`grant_type=client_credentials&client_id=${erp.clientId}&client_secret=${encodeURIComponent(erp.secret)}`);
    expect(form.status).toBe(200);
    expect(decodeJwt(((await form.json()) as { access_token: string }).access_token)).toMatchObject({ sub: 'erp-loja1', rid: 'loja1', scope: 'cobv.write cobv.read webhook.read' });
    const json = await token({ grant_type: 'client_credentials', client_id: erp.clientId, client_secret: erp.secret });
    expect(json.status).toBe(200);
  });

  it('narrows to the requested scopes; none requested gives all of the client\'s', async () => {
    const res = await token('grant_type=client_credentials&scope=cobv.read', { authorization: basic(erp.clientId, erp.secret) });
    expect(await res.json()).toMatchObject({ scope: 'cobv.read' });
  });

  it('refuses a scope beyond the client\'s, or unknown, with invalid_scope', async () => {
    await oauthError(await token('grant_type=client_credentials&scope=cobv.read%20lotecobv.write', { authorization: basic(erp.clientId, erp.secret) }), 400, 'invalid_scope');
    await oauthError(await token('grant_type=client_credentials&scope=cob.write', { authorization: basic('sandbox', 'sandbox-secret') }), 400, 'invalid_scope');
  });

  it('answers invalid_client (401, Basic challenge) for a wrong secret, an unknown client, or no credentials', async () => {
    for (const res of [
      await token('grant_type=client_credentials', { authorization: basic('sandbox', 'wrong-secret') }),
      await token('grant_type=client_credentials', { authorization: basic('nobody', 'sandbox-secret') }),
      await token('grant_type=client_credentials'),
    ]) {
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="pix"/);
      await oauthError(res, 401, 'invalid_client');
    }
  });

  it('answers unsupported_grant_type and invalid_request per RFC 6749 §5.2', async () => {
    await oauthError(await token('grant_type=password&username=a&password=b', { authorization: basic('sandbox', 'sandbox-secret') }), 400, 'unsupported_grant_type');
    await oauthError(await token('scope=cobv.read', { authorization: basic('sandbox', 'sandbox-secret') }), 400, 'invalid_request');
    await oauthError(await token('grant_type=client_credentials&grant_type=client_credentials', { authorization: basic('sandbox', 'sandbox-secret') }), 400, 'invalid_request');
    // Two authentication methods at once (RFC 6749 §2.3).
    await oauthError(await token('grant_type=client_credentials&client_secret=sandbox-secret', { authorization: basic('sandbox', 'sandbox-secret') }), 400, 'invalid_request');
  });

  it('refuses a form larger than a token request can be (413), and stays responsive: 30,000 repeated parameters froze the process for 20 s', async () => {
    const flood = token(Array.from({ length: 30_000 }, () => 'a=').join('&'));
    const live = await fetch(`${api.baseUrl}/health/live`);
    expect(live.status).toBe(200);
    await oauthError(await flood, 413, 'invalid_request');
    // Just under the limit, repeats are read (linearly) and refused as a repeated parameter.
    await oauthError(await token(`grant_type=client_credentials&${Array.from({ length: 1_000 }, () => 'grant_type=x').join('&')}`, { authorization: basic('sandbox', 'sandbox-secret') }), 400, 'invalid_request');
  });

  it('checks token requests of one address two at a time, the rest in turn: a valid one sent among wrong ones still gets its token', async () => {
    const wrong = Array.from({ length: 10 }, () => token('grant_type=client_credentials', { authorization: basic('sandbox', 'wrong-secret') }));
    const valid = token('grant_type=client_credentials', { authorization: basic('sandbox', 'sandbox-secret') });
    expect((await Promise.all(wrong)).map((a) => a.status)).toEqual(Array(10).fill(401));
    expect((await valid).status).toBe(200);
  });

  it('a client whose secret was checked before is not queued behind wrong secrets: its next token comes at once', async () => {
    const valid = () => token('grant_type=client_credentials', { authorization: basic('sandbox', 'sandbox-secret') });
    expect((await valid()).status).toBe(200);
    let refused = 0;
    const wrong = Array.from({ length: 20 }, () => token('grant_type=client_credentials', { authorization: basic('sandbox', 'wrong-secret') }).then((res) => ((refused += 1), res)));
    const again = await valid();
    // Without the shortcut it waited behind this address's queue: all 20 scrypt checks, two at a time.
    const refusedMeanwhile = refused;
    expect(again.status).toBe(200);
    expect((await Promise.all(wrong)).map((a) => a.status)).toEqual(Array(20).fill(401));
    expect(refusedMeanwhile).toBeLessThan(10);
  });

  it('answers what it cannot read (media type, malformed or duplicate-member JSON) in OAuth2 JSON too, not as Pix problems', async () => {
    const send = (body: string, contentType?: string) =>
      fetch(`${api.baseUrl}/oauth/token`, { method: 'POST', headers: { authorization: basic('sandbox', 'sandbox-secret'), ...(contentType ? { 'content-type': contentType } : {}) }, body });
    const plain = await send('grant_type=client_credentials', 'text/plain');
    expect(await plain.clone().json()).toMatchObject({ error_description: expect.stringContaining('application/x-www-form-urlencoded') });
    await oauthError(plain, 415, 'invalid_request');
    await oauthError(await send('{"grant_type":', 'application/json'), 400, 'invalid_request');
    await oauthError(await send('grant_type=client_credentials'), 415, 'invalid_request');
    await oauthError(await send('{"grant_type":"client_credentials","grant_type":"client_credentials"}', 'application/json'), 400, 'invalid_request');
  });

  it('accepts forms only at the token endpoint: the API answers 415 to a form', async () => {
    const res = await api.raw('PUT', `/cobv/${newTxid('form')}`, 'calendario=1', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(415);
  });

  it('guards scoped routes: 401 without a token, 401 invalid_token for a forged or expired one, 403 AcessoNegado without the scope', async () => {
    const none = await api.request('GET', `/cobv/${newTxid('auth')}`, undefined, {}, { auth: false });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="pix"');
    expect(none.body).toMatchObject({ type: 'about:blank', title: 'Unauthorized', status: 401 });
    expectUnauthorizedProblem(none.body, none.headers);

    const good = await api.tokenFor();
    const [h, p] = good.split('.');
    await expectInvalidToken(`${h}.${p}.${'A'.repeat(43)}`);
    await expectInvalidToken('not-a-jwt');

    const readOnly = await api.tokenFor({ clientId: erp.clientId, secret: erp.secret, scope: 'cobv.read' });
    const forbidden = await api.request('PUT', `/cobv/${newTxid('auth')}`, {}, { authorization: `Bearer ${readOnly}` });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/AcessoNegado', status: 403, detail: expect.stringContaining('cobv.write') });
    expect(forbidden.headers.get('www-authenticate')).toContain('error="insufficient_scope"');

    // Signed with the API's own key, issued 3601 s ago with the default 3600 s lifetime.
    const key = Buffer.from(TEST_TOKEN_KEY, 'hex');
    const claims = { sub: 'sandbox', rid: 'local', scope: ALL, gen: 1 };
    const expired = (await new TokenSigner(key, () => new Date(Date.now() - 3601_000)).sign(claims, 3600)).token;
    await expectInvalidToken(expired);
    const stillValid = (await new TokenSigner(key, () => new Date(Date.now() - 3500_000)).sign(claims, 3600)).token;
    expect((await getCobv(stillValid)).status).toBe(404);
  });

  it('a rotated secret: the old one is refused at once, tokens issued with it within AUTH_CACHE_MS', async () => {
    const old = await api.tokenFor({ clientId: erp.clientId, secret: erp.secret });
    expect((await getCobv(old)).status).toBe(404);
    const rotated = await rotateClientSecret({ store }, erp.clientId);
    expect(rotated.generation).toBe(2);
    await oauthError(await token('grant_type=client_credentials', { authorization: basic(erp.clientId, erp.secret) }), 401, 'invalid_client');
    const fresh = await api.tokenFor({ clientId: erp.clientId, secret: rotated.secret });
    expect(decodeJwt(fresh)).toMatchObject({ gen: 2 });
    await sleep(CACHE_MS + 100);
    await expectInvalidToken(old);
    expect((await getCobv(fresh)).status).toBe(404);
    erp.secret = rotated.secret;
  });

  it('a disabled client gets no token, and its tokens stop within AUTH_CACHE_MS', async () => {
    const before = await api.tokenFor({ clientId: erp.clientId, secret: erp.secret });
    await disableClient({ store }, erp.clientId);
    await oauthError(await token('grant_type=client_credentials', { authorization: basic(erp.clientId, erp.secret) }), 401, 'invalid_client');
    await sleep(CACHE_MS + 100);
    await expectInvalidToken(before);
  });
});
