import { randomUUID } from 'node:crypto';
import { createResponseValidator, createTestDatabase, type TestDatabase } from '@pix/testing';
import { LOCAL_KEY, startApi, type ApiResponse, type RunningApi } from '../support/api-harness';

// PUT/GET/DELETE /webhook/{chave} and GET /webhook on the in-process API (local mode, plus one
// production-mode instance for the https-only rule). Every answer goes through the harness, so
// it also validates against the official contract.

const CRIACAO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ERROR = 'https://pix.bcb.gov.br/api/v2/error/';
const EVP = randomUUID();
const PHONE = '+5511999998888';
const EMAIL = 'recebedor@example.com';
const validator = createResponseValidator();
const path = (chave: string) => `/webhook/${encodeURIComponent(chave)}`;

function expectProblem(res: ApiResponse, status: number, tipo: string, propriedade?: string): void {
  expect({ status: res.status, type: res.body?.type, bodyStatus: res.body?.status }).toEqual({ status, type: ERROR + tipo, bodyStatus: status });
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  if (propriedade !== undefined) expect((res.body.violacoes ?? []).map((v: any) => v.propriedade)).toContain(propriedade);
}

describe('webhook registration (local mode)', () => {
  let api: RunningApi;
  const put = (chave: string, body: unknown) => api.request('PUT', path(chave), body);

  beforeAll(async () => {
    api = await startApi({ env: { LOCAL_PIX_KEY: [LOCAL_KEY, EVP, PHONE, EMAIL].join(',') } });
  });
  afterAll(async () => api?.stop());

  it('PUT answers 200 with webhookUrl, chave and criacao (UTC with ms); GET shows the same', async () => {
    const before = Date.now();
    const res = await put(LOCAL_KEY, { webhookUrl: 'http://127.0.0.1:9/hook' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['chave', 'criacao', 'webhookUrl']);
    expect(res.body).toEqual({ webhookUrl: 'http://127.0.0.1:9/hook', chave: LOCAL_KEY, criacao: expect.stringMatching(CRIACAO) });
    expect(Date.parse(res.body.criacao)).toBeGreaterThanOrEqual(before - 5);
    expect(Date.parse(res.body.criacao)).toBeLessThanOrEqual(Date.now() + 5);
    expect(validator.validateSchema('WebhookCompleto', res.body).errors).toEqual([]);
    const get = await api.request('GET', path(LOCAL_KEY));
    expect(get.status).toBe(200);
    expect(get.body).toEqual(res.body);
  });

  it('a second PUT with another URL replaces the registration; the same URL again changes nothing', async () => {
    const first = await put(EVP, { webhookUrl: 'https://pix.example.com/api/webhook/' });
    expect(first.status).toBe(200);
    const same = await put(EVP, { webhookUrl: 'https://pix.example.com/api/webhook/' });
    expect(same.body).toEqual(first.body);
    await new Promise((r) => setTimeout(r, 5));
    const second = await put(EVP, { webhookUrl: 'https://outro.example.com/hook?conta=1' });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ webhookUrl: 'https://outro.example.com/hook?conta=1', chave: EVP, criacao: expect.stringMatching(CRIACAO) });
    expect(Date.parse(second.body.criacao)).toBeGreaterThan(Date.parse(first.body.criacao));
    expect((await api.request('GET', path(EVP))).body).toEqual(second.body);
    const list = await api.request('GET', '/webhook');
    expect(list.body.webhooks.filter((w: any) => w.chave === EVP)).toEqual([second.body]);
  });

  it('takes keys of every type the receiver owns (phone, e-mail) and lists every registration', async () => {
    const phone = await put(PHONE, { webhookUrl: 'https://pix.example.com/telefone' });
    const email = await put(EMAIL, { webhookUrl: 'https://pix.example.com/email' });
    expect([phone.status, email.status]).toEqual([200, 200]);
    expect((await api.request('GET', path(PHONE))).body).toEqual(phone.body);
    expect((await api.request('GET', path(EMAIL))).body).toEqual(email.body);

    const all = await api.request('GET', '/webhook');
    expect(all.status).toBe(200);
    const byKey = Object.fromEntries(all.body.webhooks.map((w: any) => [w.chave, w]));
    expect(Object.keys(byKey).sort()).toEqual([LOCAL_KEY, EVP, PHONE, EMAIL].sort());
    expect(byKey[PHONE]).toEqual(phone.body);
    expect(byKey[EMAIL]).toEqual(email.body);
    expect(all.body.parametros.paginacao).toEqual({ paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 4 });

    const page = await api.request('GET', '/webhook?paginacao.itensPorPagina=3&paginacao.paginaAtual=1');
    expect(page.body.webhooks).toHaveLength(1);
    expect(page.body.parametros.paginacao).toEqual({ paginaAtual: 1, itensPorPagina: 3, quantidadeDePaginas: 2, quantidadeTotalDeItens: 4 });

    // inicio/fim filter on criacao: only the two registered last.
    const inicio = phone.body.criacao;
    const since = await api.request('GET', `/webhook?inicio=${inicio}&fim=2100-01-01T00:00:00Z`);
    expect(since.body.webhooks.map((w: any) => w.chave).sort()).toEqual([PHONE, EMAIL].sort());
    expect(since.body.parametros).toMatchObject({ inicio, fim: '2100-01-01T00:00:00.000Z' });
    const none = await api.request('GET', '/webhook?inicio=2000-01-01T00:00:00Z&fim=2000-01-02T00:00:00Z');
    expect(none.body.webhooks).toEqual([]);
  });

  it('DELETE answers 204; then GET and a second DELETE answer 404 WebhookNaoEncontrado and the list drops it', async () => {
    const del = await api.request('DELETE', path(EMAIL));
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectProblem(await api.request('GET', path(EMAIL)), 404, 'WebhookNaoEncontrado');
    expectProblem(await api.request('DELETE', path(EMAIL)), 404, 'WebhookNaoEncontrado');
    const list = await api.request('GET', '/webhook');
    expect(list.body.webhooks.map((w: any) => w.chave)).not.toContain(EMAIL);
    expect(list.body.parametros.paginacao.quantidadeTotalDeItens).toBe(3);
    // A removed key can be registered again.
    const again = await put(EMAIL, { webhookUrl: 'https://pix.example.com/email2' });
    expect(again.status).toBe(200);
    expect(again.body.webhookUrl).toBe('https://pix.example.com/email2');
  });

  it('GET of a key that never had a webhook is 404 WebhookNaoEncontrado', async () => {
    expectProblem(await api.request('GET', path(randomUUID())), 404, 'WebhookNaoEncontrado');
  });

  const invalid: [string, string, unknown, string][] = [
    ['a malformed key', 'nao-e-uma-chave', { webhookUrl: 'https://pix.example.com/h' }, 'chave'],
    ['an EVP key in capitals', LOCAL_KEY.toUpperCase(), { webhookUrl: 'https://pix.example.com/h' }, 'chave'],
    ['a CPF with wrong check digits', '12345678900', { webhookUrl: 'https://pix.example.com/h' }, 'chave'],
    ['a valid key of someone else', randomUUID(), { webhookUrl: 'https://pix.example.com/h' }, 'chave'],
    ['a URL that is not a URL', LOCAL_KEY, { webhookUrl: 'não é url' }, 'webhook.webhookUrl'],
    ['a URL of another scheme', LOCAL_KEY, { webhookUrl: 'ftp://pix.example.com/h' }, 'webhook.webhookUrl'],
    ['a URL with credentials', LOCAL_KEY, { webhookUrl: 'https://user:secret@pix.example.com/h' }, 'webhook.webhookUrl'],
    ['a URL with a fragment', LOCAL_KEY, { webhookUrl: 'https://pix.example.com/h#x' }, 'webhook.webhookUrl'],
    ['an empty URL', LOCAL_KEY, { webhookUrl: '' }, 'webhook.webhookUrl'],
    ['a URL that is a number', LOCAL_KEY, { webhookUrl: 42 }, 'webhook.webhookUrl'],
    ['no webhookUrl', LOCAL_KEY, {}, 'webhook.webhookUrl'],
    ['an unknown field', LOCAL_KEY, { webhookUrl: 'https://pix.example.com/h', extra: 1 }, 'webhook.extra'],
    ['an array body', LOCAL_KEY, [{ webhookUrl: 'https://pix.example.com/h' }], 'webhook'],
  ];
  it.each(invalid)('refuses %s with 400 WebhookOperacaoInvalida naming the property, changing nothing', async (_name, chave, body, propriedade) => {
    const before = await api.request('GET', path(LOCAL_KEY));
    expect(before.status).toBe(200);
    expectProblem(await put(chave, body), 400, 'WebhookOperacaoInvalida', propriedade);
    expect((await api.request('GET', path(LOCAL_KEY))).body).toEqual(before.body);
    if (chave !== LOCAL_KEY && chave.toLowerCase() !== LOCAL_KEY) expect((await api.request('GET', path(chave))).status).toBe(404);
  });

  it('refuses a list query that breaks the schema with 400 WebhookConsultaInvalida (the contract\'s type for GET /webhook)', async () => {
    const res = await api.request('GET', '/webhook?inicio=ontem&fim=2100-01-01T00:00:00Z');
    expectProblem(res, 400, 'WebhookConsultaInvalida', 'inicio');
    expectProblem(await api.request('GET', '/webhook?paginacao.itensPorPagina=-1'), 400, 'WebhookConsultaInvalida');
  });
});

describe('webhook registration (production mode: https only)', () => {
  let db: TestDatabase;
  let api: RunningApi;
  beforeAll(async () => {
    db = await createTestDatabase('webhook_prod');
    api = await startApi({ db, env: { MODE: 'production' }, chaves: [LOCAL_KEY] });
  });
  afterAll(async () => {
    await api?.stop();
    await db?.drop();
  });

  it('refuses an http URL with WebhookOperacaoInvalida on webhookUrl and accepts https', async () => {
    const http = await api.request('PUT', path(LOCAL_KEY), { webhookUrl: 'http://pix.example.com/api/webhook' });
    expectProblem(http, 400, 'WebhookOperacaoInvalida', 'webhook.webhookUrl');
    expectProblem(await api.request('GET', path(LOCAL_KEY)), 404, 'WebhookNaoEncontrado');
    const https = await api.request('PUT', path(LOCAL_KEY), { webhookUrl: 'https://pix.example.com/api/webhook' });
    expect(https.status).toBe(200);
    expect(https.body).toEqual({ webhookUrl: 'https://pix.example.com/api/webhook', chave: LOCAL_KEY, criacao: expect.stringMatching(CRIACAO) });
  });

  it.each([
    'https://127.0.0.1/hook',
    'https://2130706433/hook',
    'https://0x7f000001/hook',
    'https://localhost/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://10.1.2.3/hook',
    'https://172.16.0.1/hook',
    'https://192.168.0.10/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/hook',
    'https://[fd00:ec2::254]/hook',
    'https://[fe80::1]/hook',
    'https://224.0.0.1/hook',
  ])('refuses %s (private, loopback, link-local, metadata or multicast) and stores nothing', async (webhookUrl) => {
    expectProblem(await api.request('PUT', path(LOCAL_KEY), { webhookUrl }), 400, 'WebhookOperacaoInvalida', 'webhook.webhookUrl');
  });

  it('mounts neither the sandbox payer nor the in-process notifier endpoints', async () => {
    const sandbox = await fetch(`${api.baseUrl}/sandbox/cash-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const stats = await fetch(`${api.baseUrl}/notifier/stats`);
    expect([sandbox.status, stats.status]).toEqual([404, 404]);
  });
});
