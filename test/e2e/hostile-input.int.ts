import type { TipoErro } from '@pix/contracts';
import { Client } from 'pg';
import { LOCAL_KEY, newTxid, startApi, validCobV, type ApiResponse, type RunningApi } from '../support/api-harness';
import { settledBatch } from '../support/lotecobv-expect';
import { createCharge, expectNoCharge, expectProblem, readCharge } from '../support/cobv-expect';

// Issue 9's hostile inputs, replayed over HTTP on a real API: each is refused with the
// endpoint's problem (never a 5xx) and the event store holds exactly what it held before.
jest.setTimeout(120_000);

// Every name a plain object inherits: a check that looks members up on an object finds them.
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).filter((n) => n !== '__proto__');
const BAD_TEXT: [string, string][] = [
  ['NUL', 'a\u0000b'],
  ['a lone high surrogate', 'a\ud800b'],
  ['a lone low surrogate', '\udc00'],
];
const NESTED = '['.repeat(10_000) + ']'.repeat(10_000);

describe('hostile input never reaches the store', () => {
  let api: RunningApi;
  let db: Client;
  let victim: string;
  let before: unknown;
  const eventCount = async () => Number((await db.query('SELECT count(*) AS n FROM es_events')).rows[0].n);
  const call = async (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) => {
    const r = await fetch(`${api.baseUrl}${path}`, { method, body: init.body, headers: init.headers });
    const text = await r.text();
    return { status: r.status, headers: r.headers, text, body: text ? JSON.parse(text) : undefined } as ApiResponse;
  };
  /** Runs `send`, then checks it changed nothing at all (no event anywhere, the victim as it was). */
  const unchanged = async (send: () => Promise<ApiResponse>): Promise<ApiResponse> => {
    const events = await eventCount();
    const res = await send();
    if (res.status >= 500) throw new Error(`5xx: ${res.status} ${res.text.slice(0, 500)}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await eventCount()).toBe(events);
    expect(await readCharge(api, victim)).toEqual(before);
    return res;
  };

  beforeAll(async () => {
    api = await startApi({ env: { RATE_LIMIT_PER_SECOND: '0' } });
    db = new Client({ connectionString: api.db.url });
    db.on('error', () => undefined);
    await db.connect();
    victim = newTxid('victim');
    await createCharge(api, victim, validCobV());
    before = await readCharge(api, victim);
  });
  afterAll(async () => {
    await db?.end();
    await api?.stop();
  });

  describe('members named like Object.prototype members are unknown members', () => {
    it.each(PROTOTYPE_NAMES.flatMap((name) => ['', 'valor', 'calendario'].map((at) => [name, at ? `cobv.${at}` : 'cobv', at])))('%s in %s', async (name, _where, at) => {
      const body = validCobV();
      (at ? body[at] : body)[name] = 1;
      const path = at ? `cobv.${at}.${name}` : `cobv.${name}`;
      for (const [method, txid] of [['PUT', newTxid('p')], ['PUT', victim], ['PATCH', victim]]) {
        const res = await unchanged(() => api.request(method, `/cobv/${txid}`, method === 'PATCH' ? { [name]: 1 } : body));
        expectProblem(res, 400, 'CobVOperacaoInvalida', method === 'PATCH' ? `cobv.${name}` : path);
      }
    });
  });

  describe('NUL and lone surrogates are refused at the edge with the endpoint\'s problem', () => {
    it.each(BAD_TEXT)('%s in cobv strings', async (_label, text) => {
      for (const over of [{ devedor: { cpf: '12345678909', nome: text } }, { solicitacaoPagador: text }, { infoAdicionais: [{ nome: text, valor: 'v' }] }]) {
        const txid = newTxid('nul');
        expectProblem(await unchanged(() => api.request('PUT', `/cobv/${txid}`, validCobV(over))), 400, 'CobVOperacaoInvalida');
        await expectNoCharge(api, txid);
      }
    });

    it.each(BAD_TEXT)('%s in a batch: descricao, an item member and an item key', async (_label, text) => {
      const item = { txid: newTxid('l'), ...validCobV() };
      for (const body of [{ descricao: text, cobsv: [item] }, { descricao: 'x', cobsv: [{ ...item, solicitacaoPagador: text }] }, { descricao: 'x', cobsv: [{ ...item, [text]: 1 }] }])
        expectProblem(await unchanged(() => api.request('PUT', `/lotecobv/${900 + Math.floor(Math.random() * 1000)}`, body)), 400, 'LoteCobVOperacaoInvalida');
    });

    it.each(BAD_TEXT)('%s in webhookUrl', async (_label, text) => {
      expectProblem(await unchanged(() => api.request('PUT', `/webhook/${LOCAL_KEY}`, { webhookUrl: `http://example.com/${text}` })), 400, 'WebhookOperacaoInvalida');
    });

    it('NUL in identifiers: webhook key, sandbox txid and payer info, token client_id, operator ids', async () => {
      expectProblem(await unchanged(() => api.request('PUT', '/webhook/%00', { webhookUrl: 'http://example.com/h' })), 400, 'WebhookOperacaoInvalida');
      expectProblem(await unchanged(() => api.request('GET', '/webhook/%00')), 404, 'WebhookNaoEncontrado');
      expectProblem(await unchanged(() => api.request('GET', '/cobv/%00')), 404, 'CobVNaoEncontrada');
      expectProblem(await unchanged(() => api.request('GET', '/cobv?inicio=2020-01-01T00:00:00Z&fim=2030-01-01T00:00:00Z&cpf=%00')), 400, 'CobVConsultaInvalida');
      const json = { 'content-type': 'application/json' };
      for (const body of ['{"txid":"a\\u0000"}', `{"txid":"${victim}","infoPagador":"\\ud800"}`]) {
        const res = await unchanged(() => call('POST', '/sandbox/cash-in', { body, headers: json }));
        expect(res.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida');
      }
      const token = await unchanged(() => call('POST', '/oauth/token', { body: 'grant_type=client_credentials&client_id=sandbox%00&client_secret=sandbox-secret', headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
      expect([token.status, token.body.error]).toEqual([400, 'invalid_request']);
      const resend = await unchanged(() => call('POST', '/notifier/resend', { body: '{"endToEndIds":["E\\u0000"]}', headers: json }));
      expect(resend.status).toBe(400);
    });
  });

  it('percent-encoded bytes that are not UTF-8 in a path id: a GET answers its own 404 (it declares no 400), a PUT/PATCH its own 400, as for NUL', async () => {
    const reads: [string, TipoErro][] = [
      ['/cobv/%FF', 'CobVNaoEncontrada'], ['/cobv/%ED%A0%80/qrcode', 'CobVNaoEncontrada'], ['/lotecobv/%C3%28', 'LoteCobVNaoEncontrado'],
      ['/loc/%FF', 'PayloadLocationNaoEncontrado'], ['/webhook/%FF', 'WebhookNaoEncontrado'], ['/pix/%FF', 'PixNaoEncontrado'],
    ];
    for (const [path, tipo] of reads) expectProblem(await unchanged(() => api.request('GET', path)), 404, tipo);
    expectProblem(await unchanged(() => api.request('PUT', '/cobv/%FF', validCobV())), 400, 'CobVOperacaoInvalida');
    expectProblem(await unchanged(() => api.request('PATCH', '/cobv/%C3%28', { solicitacaoPagador: 'x' })), 400, 'CobVOperacaoInvalida');
    expectProblem(await unchanged(() => api.request('PUT', '/webhook/%FF', { webhookUrl: 'http://example.com/h' })), 400, 'WebhookOperacaoInvalida');
    expectProblem(await unchanged(() => api.request('DELETE', '/webhook/%FF')), 404, 'WebhookNaoEncontrado');
  });

  it('a malformed percent escape (%zz, %4, a trailing %) takes the same path as bytes that are not UTF-8: the endpoint\'s own problem, in the path or the query', async () => {
    const reads: [string, TipoErro][] = [
      ['/cobv/%zz', 'CobVNaoEncontrada'], ['/cobv/ab%/qrcode', 'CobVNaoEncontrada'], ['/lotecobv/1%4', 'LoteCobVNaoEncontrado'],
      ['/loc/%', 'PayloadLocationNaoEncontrado'], ['/webhook/%zz', 'WebhookNaoEncontrado'], ['/pix/%zz', 'PixNaoEncontrado'],
    ];
    for (const [path, tipo] of reads) expectProblem(await unchanged(() => api.request('GET', path)), 404, tipo);
    expectProblem(await unchanged(() => api.request('PUT', '/cobv/abc%zzdefghijklmnopqrstuvwxyz', validCobV())), 400, 'CobVOperacaoInvalida', 'txid');
    const period = 'inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z';
    const queries: [string, TipoErro, string][] = [
      [`/cobv?${period}&cpf=%zz`, 'CobVConsultaInvalida', 'cpf'],
      ['/cobv?inicio=2000-01-01T00:00:00Z%&fim=2100-01-01T00:00:00Z', 'CobVConsultaInvalida', 'inicio'],
      [`/lotecobv?${period}&paginacao.paginaAtual=%`, 'LoteCobVConsultaInvalida', 'paginacao.paginaAtual'],
      [`/loc?${period}&%zz=1`, 'PayloadLocationConsultaInvalida', '?zz'],
      [`/webhook?fim=%2`, 'WebhookConsultaInvalida', 'fim'],
    ];
    for (const [path, tipo, propriedade] of queries) {
      const res = await api.request('GET', path);
      expectProblem(res, 400, tipo, propriedade);
      expect(res.body.violacoes[0].razao).toMatch(/escape percentual malformado/);
    }
  });

  describe('every other control character (C0, DEL, C1) is refused in any text, with the endpoint\'s problem naming the member', () => {
    const CONTROLS: [string, string][] = [
      ['U+0001', 'a\u0001b'],
      ['TAB', 'a\tb'],
      ['LF', 'linha 1\nlinha 2'],
      ['CR', 'a\rb'],
      ['U+001F', '\u001f'],
      ['DEL', 'a\u007fb'],
      ['C1 U+0085 (NEL)', 'a\u0085b'],
      ['C1 U+009B (CSI)', '\u009b31m'],
    ];
    const devedor = validCobV().devedor;
    it.each(CONTROLS)('%s in solicitacaoPagador, infoAdicionais, devedor (PUT and PATCH)', async (_label, text) => {
      const cases: [Record<string, unknown>, string][] = [
        [{ solicitacaoPagador: text }, 'cobv.solicitacaoPagador'],
        [{ infoAdicionais: [{ nome: 'Campo', valor: 'ok' }, { nome: text, valor: 'v' }] }, 'cobv.infoAdicionais[1].nome'],
        [{ infoAdicionais: [{ nome: 'Campo', valor: text }] }, 'cobv.infoAdicionais[0].valor'],
        [{ devedor: { ...devedor, nome: text } }, 'cobv.devedor.nome'],
        [{ devedor: { ...devedor, logradouro: text } }, 'cobv.devedor.logradouro'],
        [{ devedor: { ...devedor, cidade: text } }, 'cobv.devedor.cidade'],
      ];
      for (const [over, member] of cases) {
        const txid = newTxid('ctl');
        expectProblem(await unchanged(() => api.request('PUT', `/cobv/${txid}`, validCobV(over))), 400, 'CobVOperacaoInvalida', member);
        await expectNoCharge(api, txid);
        expectProblem(await unchanged(() => api.request('PUT', `/cobv/${victim}`, validCobV(over))), 400, 'CobVOperacaoInvalida', member);
        expectProblem(await unchanged(() => api.request('PATCH', `/cobv/${victim}`, over)), 400, 'CobVOperacaoInvalida', member);
      }
    });

    it.each(CONTROLS)('%s in a batch: descricao and an item member', async (_label, text) => {
      const item = { txid: newTxid('lc'), ...validCobV() };
      for (const [body, member] of [
        [{ descricao: text, cobsv: [item] }, 'loteCobV.descricao'],
        [{ descricao: 'x', cobsv: [{ ...item, solicitacaoPagador: text }] }, 'loteCobV.cobsv[0].solicitacaoPagador'],
      ] as const)
        expectProblem(await unchanged(() => api.request('PUT', `/lotecobv/${2000 + Math.floor(Math.random() * 1000)}`, body)), 400, 'LoteCobVOperacaoInvalida', member);
    });

    it('printable text stays accepted: accents, symbols, NBSP, emoji', async () => {
      const txid = newTxid('ok');
      const text = 'Cobrança nº 7 — 50% à vista; ~ \u00a0 😀';
      const res = await api.request('PUT', `/cobv/${txid}`, validCobV({ solicitacaoPagador: text, infoAdicionais: [{ nome: 'Campo', valor: text }] }));
      expect(res.status).toBe(201);
      expect(res.body.solicitacaoPagador).toBe(text);
    });
  });

  it('deep nesting is refused at parse time, never a stack overflow', async () => {
    expectProblem(await unchanged(() => api.raw('PUT', `/webhook/${LOCAL_KEY}`, `{"webhookUrl":${NESTED}}`)), 400, 'RequisicaoInvalida');
    expectProblem(await unchanged(() => api.raw('PUT', '/lotecobv/77', `{"descricao":${NESTED},"cobsv":[]}`)), 400, 'RequisicaoInvalida');
    expectProblem(await unchanged(() => api.raw('PUT', '/lotecobv/78', `{"descricao":"x","cobsv":[{"txid":${NESTED}}]}`)), 400, 'RequisicaoInvalida');
    expectProblem(await unchanged(() => api.raw('PUT', `/cobv/${newTxid()}`, `{"valor":${NESTED}}`)), 400, 'RequisicaoInvalida');
  });

  it.each(['29.999999999999999', '1e-400', '2147483647.0000000001'])('validadeAposVencimento %s is refused, not stored as the integer it rounds to', async (n) => {
    const body = JSON.stringify(validCobV()).replace(/"validadeAposVencimento":\d+/, `"validadeAposVencimento":${n}`);
    expect(body).toContain(n);
    expectProblem(await unchanged(() => api.raw('PUT', `/cobv/${victim}`, body)), 400, 'CobVOperacaoInvalida', 'cobv.calendario.validadeAposVencimento');
  });

  it('duplicate member names are malformed JSON, anywhere', async () => {
    const cobv = JSON.stringify(validCobV()).replace('"valor":{', '"valor":{"original":"2.00"},"valor":{');
    expectProblem(await unchanged(() => api.raw('PUT', `/cobv/${victim}`, cobv)), 400, 'RequisicaoInvalida', 'cobv.valor');
    expectProblem(await unchanged(() => api.raw('PUT', `/webhook/${LOCAL_KEY}`, '{"webhookUrl":123,"webhookUrl":"http://example.com/h"}')), 400, 'RequisicaoInvalida');
    const item = JSON.stringify({ txid: newTxid('d'), ...validCobV() }).replace(/^\{/, '{"chave":"x",');
    expectProblem(await unchanged(() => api.raw('PUT', '/lotecobv/79', `{"descricao":"x","cobsv":[${item}]}`)), 400, 'RequisicaoInvalida');
  });

  it.each(['gzip', 'deflate', 'br', 'x-unknown', 'identity, gzip'])('Content-Encoding %s is 415, the body never read as plain', async (encoding) => {
    const res = await unchanged(() => api.raw('PUT', `/cobv/${newTxid('enc')}`, JSON.stringify(validCobV()), { 'content-type': 'application/json', 'content-encoding': encoding }));
    expectProblem(res, 415, 'RequisicaoInvalida');
  });

  describe('a body declared in a charset other than UTF-8 is 415, never read as UTF-8 (RFC 8259 §8.1)', () => {
    const FOREIGN = ['iso-8859-1', 'ISO-8859-1', 'utf-16', '"windows-1252"', 'latin1', 'utf8'];
    it.each(FOREIGN)('charset=%s on every JSON endpoint: PUT /cobv, PUT /webhook, sandbox cash-in, operator resend', async (charset) => {
      const json = { 'content-type': `application/json; charset=${charset}` };
      const txid = newTxid('cs');
      // What an ISO-8859-1 client sends: "Cobrança" in one byte per character, invalid UTF-8 or not.
      const latin1 = Buffer.from(JSON.stringify(validCobV({ solicitacaoPagador: 'Cobrança' })), 'latin1');
      expectProblem(await unchanged(() => api.raw('PUT', `/cobv/${txid}`, latin1, json)), 415, 'RequisicaoInvalida');
      expectProblem(await unchanged(() => api.raw('PUT', `/cobv/${txid}`, JSON.stringify(validCobV()), json)), 415, 'RequisicaoInvalida');
      await expectNoCharge(api, txid);
      expectProblem(await unchanged(() => api.raw('PUT', `/webhook/${LOCAL_KEY}`, '{"webhookUrl":"http://example.com/h"}', json)), 415, 'RequisicaoInvalida');
      expectProblem(await unchanged(() => call('POST', '/sandbox/cash-in', { body: `{"txid":"${victim}"}`, headers: json })), 415, 'RequisicaoInvalida');
      expectProblem(await unchanged(() => call('POST', '/notifier/resend', { body: '{"ids":[]}', headers: json })), 415, 'RequisicaoInvalida');
    });

    it.each(['', '; charset=utf-8', '; charset=UTF-8', '; charset="utf-8"', ';CHARSET="Utf-8"'])('application/json%s is accepted', async (params) => {
      const txid = newTxid('u8');
      const res = await api.raw('PUT', `/cobv/${txid}`, JSON.stringify(validCobV({ solicitacaoPagador: 'Cobrança' })), { 'content-type': `application/json${params}` });
      expect(res.status).toBe(201);
      expect(res.body.solicitacaoPagador).toBe('Cobrança');
    });

    it('the token endpoint answers RFC 6749 invalid_request with 415 for a form or JSON in another charset, and takes UTF-8 ones', async () => {
      const basic = `Basic ${Buffer.from('sandbox:sandbox-secret').toString('base64')}`;
      const token = (body: string, contentType: string) => call('POST', '/oauth/token', { body, headers: { authorization: basic, 'content-type': contentType } });
      for (const [body, type] of [
        ['grant_type=client_credentials', 'application/x-www-form-urlencoded; charset=iso-8859-1'],
        ['grant_type=client_credentials', 'application/x-www-form-urlencoded;charset="UTF-16"'],
        ['{"grant_type":"client_credentials"}', 'application/json; charset=windows-1252'],
      ]) {
        const res = await token(body, type);
        expect([res.status, res.body.error, res.headers.get('content-type')]).toEqual([415, 'invalid_request', 'application/json; charset=utf-8']);
        expect(res.body.error_description).toMatch(/UTF-8/);
      }
      expect((await token('grant_type=client_credentials', 'application/x-www-form-urlencoded; charset=UTF-8')).status).toBe(200);
      expect((await token('{"grant_type":"client_credentials"}', 'application/json; charset="utf-8"')).status).toBe(200);
    });
  });

  it.each([
    'http://example.com/h\r\nX-Injected: 1',
    'http://example.com/a b',
    'http://exa\u200bmple.com/h',
    'http://example.com/\u202eh',
    'http:///h',
    'http://example.com:0/h',
    'http:\\\\example.com\\h',
    'http://example.com\\@evil.example/',
    'http://user:pw@example.com/h',
  ])('webhookUrl %j is refused and not stored', async (webhookUrl) => {
    // CR/LF never reach the URL rules: the edge's text rule refuses them, naming the member from the body's root.
    expectProblem(await unchanged(() => api.request('PUT', `/webhook/${LOCAL_KEY}`, { webhookUrl })), 400, 'WebhookOperacaoInvalida', 'webhook.webhookUrl');
    expect((await api.request('GET', `/webhook/${LOCAL_KEY}`)).status).toBe(404);
  });

  it('batch items with constructor or prototype are denied alone, as PUT /cobv refuses them', async () => {
    for (const name of ['constructor', 'prototype', 'valueOf']) {
      const txid = newTxid('bi');
      const body = `{"descricao":"x","cobsv":[${JSON.stringify({ txid, ...validCobV() }).replace(/^\{/, `{"${name}":{"a":1},`)}]}`;
      const id = 1000 + Math.floor(Math.random() * 100_000);
      expect((await api.raw('PUT', `/lotecobv/${id}`, body)).status).toBe(202);
      const lote = await settledBatch(api, String(id), 5000);
      expect(lote.cobsv[0]).toMatchObject({ txid, status: 'NEGADA', problema: { type: 'https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida', violacoes: [{ propriedade: `cobv.${name}` }] } });
      await expectNoCharge(api, txid);
    }
  });

  it('a client secret with a trailing NUL is not the secret', async () => {
    for (const secret of [`${api.client.secret}\u0000`, `${api.client.secret}\u0000\u0000`]) {
      const basic = Buffer.from(`${api.client.clientId}:${secret}`).toString('base64');
      const res = await unchanged(() => call('POST', '/oauth/token', { body: 'grant_type=client_credentials', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' } }));
      expect([res.status, res.body.error]).toEqual([401, 'invalid_client']);
    }
  });
});
