import { LOCAL_KEY, startApi, type RunningApi } from '../support/api-harness';

// Edges of the webhook, Pix and location surface found by an audit (2026-11-27). Every answer goes
// through the harness, so it must also be one the official contract declares for its operation.

const ERROR = 'https://pix.bcb.gov.br/api/v2/error/';

describe('path parameters of any length get the endpoint’s own problem', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi({ env: { LOCAL_PIX_KEY: LOCAL_KEY } });
  });
  afterAll(async () => api?.stop());

  // The same answer as for a 1,000-character parameter (the router's old limit), whatever the length
  // the request line allows: a 1,001-character key was a bare 400 RequisicaoInvalida, which the
  // reads (GET /webhook/{chave}, /pix/{e2eid}, /loc/{id}, ...) do not declare.
  const cases: [string, string, unknown, number, string][] = [
    ['GET', '/webhook/:p', undefined, 404, 'WebhookNaoEncontrado'],
    ['DELETE', '/webhook/:p', undefined, 404, 'WebhookNaoEncontrado'],
    ['PUT', '/webhook/:p', { webhookUrl: 'http://127.0.0.1:9/h' }, 400, 'WebhookOperacaoInvalida'],
    ['GET', '/pix/:p', undefined, 404, 'PixNaoEncontrado'],
    ['GET', '/loc/:p', undefined, 404, 'PayloadLocationNaoEncontrado'],
    ['DELETE', '/loc/:p/txid', undefined, 404, 'PayloadLocationNaoEncontrado'],
    ['GET', '/cobv/:p', undefined, 404, 'CobVNaoEncontrada'],
    ['GET', '/lotecobv/:p', undefined, 404, 'LoteCobVNaoEncontrado'],
  ];
  for (const length of [1000, 1001, 12_000])
    it.each(cases)(`%s %s with a ${length}-character parameter`, async (method, template, body, status, tipo) => {
      const res = await api.request(method, template.replace(':p', 'a'.repeat(length)), body);
      expect({ status: res.status, type: res.body?.type }).toEqual({ status, type: ERROR + tipo });
    });

  it.each([1001, 12_000])('the payload location (outside the base path) with a %s-character token', async (length) => {
    const res = await fetch(`${api.baseUrl}/qr/v2/cobv/${'a'.repeat(length)}`);
    expect({ status: res.status, type: ((await res.json()) as any).type }).toEqual({ status: 404, type: ERROR + 'CobPayloadNaoEncontrado' });
  });
});

describe('GET /webhook: inicio and fim are optional, and one alone is never judged against a bound nobody sent', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi({ env: { LOCAL_PIX_KEY: LOCAL_KEY } });
    expect((await api.request('PUT', `/webhook/${LOCAL_KEY}`, { webhookUrl: 'http://127.0.0.1:9/h' })).status).toBe(200);
  });
  afterAll(async () => api?.stop());

  it('fim alone before 1970 is an empty page, echoing fim only', async () => {
    const res = await api.request('GET', '/webhook?fim=1960-01-01T00:00:00Z');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ parametros: { fim: '1960-01-01T00:00:00.000Z', paginacao: expect.objectContaining({ quantidadeTotalDeItens: 0 }) }, webhooks: [] });
  });

  it('inicio alone in the last second of 9999 is an empty page, echoing inicio only', async () => {
    const res = await api.request('GET', '/webhook?inicio=9999-12-31T23:59:59.5Z');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ parametros: { inicio: '9999-12-31T23:59:59.500Z', paginacao: expect.objectContaining({ quantidadeTotalDeItens: 0 }) }, webhooks: [] });
  });

  it('an inicio past what UTC states is still refused, naming inicio', async () => {
    const res = await api.request('GET', '/webhook?inicio=9999-12-31T23:59:59.9995Z');
    expect({ status: res.status, type: res.body.type, props: res.body.violacoes.map((v: any) => v.propriedade) }).toEqual({ status: 400, type: ERROR + 'WebhookConsultaInvalida', props: ['inicio'] });
  });

  it('without either, every registration is listed', async () => {
    const res = await api.request('GET', '/webhook?fim=9999-12-31T23:59:59.999Z');
    expect(res.body.webhooks.map((w: any) => w.chave)).toEqual([LOCAL_KEY]);
    expect((await api.request('GET', '/webhook?inicio=0000-01-01T00:00:00Z')).body.webhooks).toHaveLength(1);
  });
});
