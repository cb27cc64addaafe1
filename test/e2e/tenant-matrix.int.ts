import { decodeJwt } from 'jose';
import { Client } from 'pg';
import { PIX_SCOPES } from '@pix/domain';
import { TokenSigner } from '../../apps/api/src/access/token/token-signer';
import { LOCAL_KEY, newTxid, startApi, validCobV, type ApiResponse, type RunningApi } from '../support/api-harness';
import { settledBatch } from '../support/lotecobv-expect';
import { provisionAccess, TEST_TOKEN_KEY } from '../support/api-process';
import { newE2e } from '../support/cash-in-fixtures';

// Every endpoint × {no token, expired token, wrong scope, other tenant, right client}: the
// status and problem type each must get, and that nothing refused changed a single event.
jest.setTimeout(120_000);

const PROBLEM = 'https://pix.bcb.gov.br/api/v2/error/';
const WHOLE_TIME = 'inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z';
const OTHER = { id: 'outra-loja', nome: 'Outra Loja Ltda', cnpj: '11222333000181', logradouro: 'Rua B, 2', cidade: 'Recife', uf: 'PE', cep: '50000000' };
const OTHER_KEY = 'financeiro@outraloja.com.br';
const OTHER_CLIENT = { clientId: 'outra-loja-app', secret: 'outra-loja-secret-0123456789' };

interface Endpoint {
  name: string;
  scope: (typeof PIX_SCOPES)[number];
  method: string;
  path: () => string;
  body?: () => unknown;
  /** The right client's answer. */
  ok: number;
  /** What the other receiver gets, and what must hold afterwards. */
  otherTenant: (r: ApiResponse) => void | Promise<void>;
}

describe('access matrix: every endpoint, every kind of caller', () => {
  let api: RunningApi;
  let db: Client;
  let otherToken: string;
  let expiredToken: string;
  const a = { txid: newTxid('ma'), paidTxid: newTxid('mp'), loteId: String(Date.now() % 1_000_000_000), loteTxid: newTxid('ml'), e2eid: newE2e(), locId: 0 };

  const events = async () => Number((await db.query('SELECT count(*)::int AS n FROM es_events')).rows[0].n);
  const asA = (method: string, path: string, body?: unknown) => api.request(method, path, body);
  const withToken = (token: string) => ({ authorization: `Bearer ${token}` });
  const scopesBut = (scope: string) => PIX_SCOPES.filter((s) => s !== scope).join(' ');
  const notFound = (type: string) => (r: ApiResponse) => {
    expect(r.status).toBe(404);
    expect(r.body.type).toBe(`${PROBLEM}${type}`);
  };
  /** Waits until A's batch has decided every request, so its view stands still. */
  const batchSettled = () => settledBatch(api, a.loteId, 20_000);
  const loteBody = (descricao: string) => ({ descricao, cobsv: [{ txid: a.loteTxid, ...validCobV() }] });
  /** A's own view of a resource stays exactly as it was. */
  const unchangedForA = async (path: string, before: unknown) => expect((await asA('GET', path)).body).toEqual(before);

  beforeAll(async () => {
    api = await startApi({ env: { LOCAL_PIX_KEY: LOCAL_KEY } });
    db = new Client({ connectionString: api.db.url });
    await db.connect();
    await provisionAccess(api.db.url, { receiver: OTHER, chaves: [OTHER_KEY], client: OTHER_CLIENT });
    otherToken = await api.tokenFor(OTHER_CLIENT);
    // Same claims as a real token of A's client (generation included), but already expired.
    const { sub, rid, scope, gen } = decodeJwt(await api.tokenFor()) as { sub: string; rid: string; scope: string; gen: number };
    expiredToken = (await new TokenSigner(Buffer.from(TEST_TOKEN_KEY, 'hex'), () => new Date(Date.now() - 7_200_000)).sign({ sub, rid, scope, gen }, 3600)).token;

    // Receiver A's data: a charge, a batch, a webhook and a received Pix.
    const created = await asA('PUT', `/cobv/${a.txid}`, validCobV());
    expect(created.status).toBe(201);
    a.locId = created.body.loc.id;
    expect((await asA('PUT', `/cobv/${a.paidTxid}`, validCobV())).status).toBe(201);
    expect((await asA('PUT', `/lotecobv/${a.loteId}`, loteBody('Lote A'))).status).toBe(202);
    await batchSettled();
    expect((await asA('PUT', `/webhook/${LOCAL_KEY}`, { webhookUrl: 'https://hooks.example.com/pix' })).status).toBe(200);
    const paid = await fetch(`${api.baseUrl}/sandbox/cash-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ txid: a.paidTxid, endToEndId: a.e2eid }) });
    expect(paid.status).toBe(202);
  });
  afterAll(async () => {
    await db?.end();
    await api?.stop();
  });

  const endpoints: Endpoint[] = [
    {
      name: 'PUT /cobv/{txid}', scope: 'cobv.write', method: 'PUT', path: () => `/cobv/${a.txid}`, body: () => validCobV({ valor: { original: '9.99' } }), ok: 201,
      // A's key is not the other receiver's: refused, and A's charge of the same txid untouched.
      otherTenant: (r) => {
        expect(r.status).toBe(400);
        expect(r.body.type).toBe(`${PROBLEM}CobVOperacaoInvalida`);
      },
    },
    { name: 'PATCH /cobv/{txid}', scope: 'cobv.write', method: 'PATCH', path: () => `/cobv/${a.txid}`, body: () => ({ solicitacaoPagador: 'Revisada' }), ok: 200, otherTenant: notFound('CobVNaoEncontrada') },
    { name: 'GET /cobv/{txid}', scope: 'cobv.read', method: 'GET', path: () => `/cobv/${a.txid}`, ok: 200, otherTenant: notFound('CobVNaoEncontrada') },
    {
      name: 'GET /cobv', scope: 'cobv.read', method: 'GET', path: () => `/cobv?${WHOLE_TIME}`, ok: 200,
      otherTenant: (r) => {
        expect(r.status).toBe(200);
        expect(r.body.cobs).toEqual([]);
        expect(r.body.parametros.paginacao.quantidadeTotalDeItens).toBe(0);
      },
    },
    { name: 'PATCH /lotecobv/{id}', scope: 'lotecobv.write', method: 'PATCH', path: () => `/lotecobv/${a.loteId}`, body: () => ({ cobsv: [{ txid: a.loteTxid, solicitacaoPagador: 'Revisada' }] }), ok: 202, otherTenant: notFound('LoteCobVNaoEncontrado') },
    { name: 'GET /lotecobv/{id}', scope: 'lotecobv.read', method: 'GET', path: () => `/lotecobv/${a.loteId}`, ok: 200, otherTenant: notFound('LoteCobVNaoEncontrado') },
    {
      name: 'GET /lotecobv', scope: 'lotecobv.read', method: 'GET', path: () => `/lotecobv?${WHOLE_TIME}`, ok: 200,
      otherTenant: (r) => {
        expect(r.status).toBe(200);
        expect(r.body.lotes).toEqual([]);
      },
    },
    {
      name: 'PUT /webhook/{chave}', scope: 'webhook.write', method: 'PUT', path: () => `/webhook/${LOCAL_KEY}`, body: () => ({ webhookUrl: 'https://hooks.example.com/pix' }), ok: 200,
      otherTenant: (r) => {
        expect(r.status).toBe(400);
        expect(r.body.type).toBe(`${PROBLEM}WebhookOperacaoInvalida`);
      },
    },
    { name: 'GET /webhook/{chave}', scope: 'webhook.read', method: 'GET', path: () => `/webhook/${LOCAL_KEY}`, ok: 200, otherTenant: notFound('WebhookNaoEncontrado') },
    {
      name: 'GET /webhook', scope: 'webhook.read', method: 'GET', path: () => `/webhook?${WHOLE_TIME}`, ok: 200,
      otherTenant: (r) => {
        expect(r.status).toBe(200);
        expect(r.body.webhooks).toEqual([]);
      },
    },
    { name: 'GET /loc/{id}', scope: 'payloadlocation.read', method: 'GET', path: () => `/loc/${a.locId}`, ok: 200, otherTenant: notFound('PayloadLocationNaoEncontrado') },
    {
      name: 'GET /loc', scope: 'payloadlocation.read', method: 'GET', path: () => `/loc?${WHOLE_TIME}`, ok: 200,
      otherTenant: (r) => {
        expect(r.status).toBe(200);
        expect(r.body.loc).toEqual([]);
      },
    },
    { name: 'GET /pix/{e2eid}', scope: 'pix.read', method: 'GET', path: () => `/pix/${a.e2eid}`, ok: 200, otherTenant: notFound('PixNaoEncontrado') },
    {
      name: 'GET /pix', scope: 'pix.read', method: 'GET', path: () => `/pix?${WHOLE_TIME}`, ok: 200,
      otherTenant: (r) => {
        expect(r.status).toBe(200);
        expect(r.body.pix).toEqual([]);
      },
    },
    // Last: it removes A's webhook, which the GETs above need.
    { name: 'DELETE /webhook/{chave}', scope: 'webhook.write', method: 'DELETE', path: () => `/webhook/${LOCAL_KEY}`, ok: 204, otherTenant: notFound('WebhookNaoEncontrado') },
    // After every other batch endpoint: the other receiver's PUT gives it a batch of its own under the same id.
    {
      name: 'PUT /lotecobv/{id}', scope: 'lotecobv.write', method: 'PUT', path: () => `/lotecobv/${a.loteId}`, ok: 202,
      body: () => loteBody('Lote A alterado'),
      // Same batch id, other receiver: a batch of its own (202), never a word about A's, which stays as it was.
      otherTenant: (r) => {
        expect(r.status).toBe(202);
        expect(r.text).toBe('');
      },
    },
  ];

  describe.each(endpoints.map((e) => [e.name, e] as const))('%s', (_name, e) => {
    // A batch write is decided in the background: let it finish before counting events.
    beforeEach(async () => {
      if (e.path().startsWith('/lotecobv')) await batchSettled();
    });
    const send = (headers: Record<string, string>, auth = true) => api.request(e.method, e.path(), e.body?.(), headers, { auth });

    it('without a token: 401 with a Bearer challenge, nothing changed', async () => {
      const before = await events();
      const r = await send({}, false);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer realm="pix"/);
      expect(await events()).toBe(before);
    });

    it('with an expired token: 401 invalid_token, nothing changed', async () => {
      const before = await events();
      const r = await send(withToken(expiredToken));
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      expect(await events()).toBe(before);
    });

    it(`with every scope but ${e.scope}: 403 AcessoNegado, nothing changed`, async () => {
      const token = await api.tokenFor({ scope: scopesBut(e.scope) });
      const before = await events();
      const r = await send(withToken(token));
      expect(r.status).toBe(403);
      expect(r.body.type).toBe(`${PROBLEM}AcessoNegado`);
      expect(await events()).toBe(before);
    });

    it("as another receiver: A's data neither shown nor changed", async () => {
      const own = e.path().includes('?') ? undefined : e.path();
      const snapshot = own ? (await asA('GET', own)).body : undefined;
      const before = await events();
      const r = await send(withToken(otherToken));
      await e.otherTenant(r);
      // A list never names A's charges (a 404 may echo back the id the caller sent).
      if (e.path().includes('?')) for (const id of [a.txid, a.paidTxid, a.loteTxid, a.e2eid]) expect(r.text).not.toContain(id);
      if (e.method !== 'PUT' || e.path().startsWith('/webhook') || e.path().startsWith('/cobv')) expect(await events()).toBe(before);
      if (own) await unchangedForA(own, snapshot);
    });

    it(`with ${e.scope}: ${e.ok}`, async () => {
      const token = await api.tokenFor({ scope: e.scope });
      const r = await send(withToken(token));
      expect(r.status).toBe(e.ok);
    });
  });
});
