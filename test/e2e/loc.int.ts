import { Pool } from 'pg';
import { PostgresEventStore } from '@pix/event-store';
import { locProjection, replayProjection } from '@pix/read-models';
import { LOCAL_KEY, newTxid, startApi, validCobV, type ApiResponse, type RunningApi } from '../support/api-harness';
import { provisionAccess } from '../support/api-process';

// Payload locations (/loc): created, listed, linked to a due charge through PUT /cobv loc.id,
// unlinked; refusals change nothing; another receiver's location does not exist for a caller.
jest.setTimeout(120_000);

const PROBLEM = 'https://pix.bcb.gov.br/api/v2/error/';
const WHOLE_TIME = 'inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z';
const OTHER = { id: 'outra-loja', nome: 'Outra Loja Ltda', cnpj: '11222333000181', logradouro: 'Rua B, 2', cidade: 'Recife', uf: 'PE', cep: '50000000' };
const OTHER_KEY = 'financeiro@outraloja.com.br';
const OTHER_CLIENT = { clientId: 'outra-loja-app', secret: 'outra-loja-secret-0123456789' };

describe('/loc', () => {
  let api: RunningApi;
  let pool: Pool;
  let other: Record<string, string>;

  const events = async () => Number((await pool.query('SELECT count(*)::int AS n FROM es_events')).rows[0].n);
  const createLoc = async (headers: Record<string, string> = {}) => {
    const r = await api.request('POST', '/loc', { tipoCob: 'cobv' }, headers);
    expect(r.status).toBe(201);
    return r.body as { id: number; location: string; tipoCob: string; criacao: string };
  };
  const expectProblem = (r: ApiResponse, status: number, type: string, propriedade?: string) => {
    expect(r.status).toBe(status);
    expect(r.body.type).toBe(`${PROBLEM}${type}`);
    if (propriedade) expect(r.body.violacoes.map((v: { propriedade: string }) => v.propriedade)).toContain(propriedade);
  };

  beforeAll(async () => {
    api = await startApi({ env: { LOCAL_PIX_KEY: LOCAL_KEY } });
    pool = new Pool({ connectionString: api.db.url });
    await provisionAccess(api.db.url, { receiver: OTHER, chaves: [OTHER_KEY], client: OTHER_CLIENT });
    other = { authorization: `Bearer ${await api.tokenFor(OTHER_CLIENT)}` };
  });
  afterAll(async () => {
    await pool?.end();
    await api?.stop();
  });

  it('POST creates a cobv location with a fresh id and a random token; GET reads it back without txid', async () => {
    const a = await createLoc();
    const b = await createLoc();
    expect(b.id).toBeGreaterThan(a.id);
    expect(a).toMatchObject({ tipoCob: 'cobv', location: expect.stringMatching(/^[^/]+(:\d+)?\/qr\/v2\/cobv\/[0-9a-f]{32}$/) });
    expect(a.location).not.toBe(b.location);
    const got = await api.request('GET', `/loc/${a.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(a);
  });

  it("POST's 201 names the created location in the contract's location header: its URL, GET /loc/{id}", async () => {
    const r = await api.request('POST', '/loc', { tipoCob: 'cobv' });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${api.config.basePath}/loc/${r.body.id}`);
    const got = await fetch(new URL(r.headers.get('location') ?? '', api.baseUrl), { headers: { authorization: `Bearer ${await api.tokenFor()}` } });
    expect(await got.json()).toEqual(r.body);
  });

  it('refuses tipoCob cob, a bad body and unknown members, storing nothing', async () => {
    const before = await events();
    expectProblem(await api.request('POST', '/loc', { tipoCob: 'cob' }), 400, 'PayloadLocationOperacaoInvalida', 'loc.tipoCob');
    expectProblem(await api.request('POST', '/loc', { tipoCob: 'rec' }), 400, 'PayloadLocationOperacaoInvalida', 'loc.tipoCob');
    expectProblem(await api.request('POST', '/loc', {}), 400, 'PayloadLocationOperacaoInvalida', 'loc.tipoCob');
    expectProblem(await api.request('POST', '/loc', { tipoCob: 'cobv', txid: newTxid() }), 400, 'PayloadLocationOperacaoInvalida', 'loc.txid');
    expectProblem(await api.request('POST', '/loc', [1]), 400, 'PayloadLocationOperacaoInvalida');
    expect(await events()).toBe(before);
  });

  it('GET /loc/{id} of an unknown or malformed id is PayloadLocationNaoEncontrado', async () => {
    for (const id of ['999999999', 'abc', '-1', '1.5', '9'.repeat(30)]) expectProblem(await api.request('GET', `/loc/${id}`), 404, 'PayloadLocationNaoEncontrado');
  });

  it('PUT /cobv with loc.id uses that location; a retry is fine; GET /loc/{id} shows the txid', async () => {
    const loc = await createLoc();
    const txid = newTxid('lk');
    const put = await api.request('PUT', `/cobv/${txid}`, validCobV({ loc: { id: loc.id } }));
    expect(put.status).toBe(201);
    expect(put.body.loc).toEqual({ id: loc.id, location: loc.location, tipoCob: 'cobv', criacao: loc.criacao, txid });
    expect(put.body.location).toBe(loc.location);
    expect(put.body.pixCopiaECola).toContain(loc.location);
    expect((await api.request('PUT', `/cobv/${txid}`, validCobV({ loc: { id: loc.id } }))).status).toBe(201);
    expect((await api.request('GET', `/loc/${loc.id}`)).body).toEqual({ ...loc, txid });
  });

  it('refuses loc.id that does not exist, serves another charge, or belongs to another receiver, and stores nothing', async () => {
    const mine = await createLoc();
    const taken = newTxid('tk');
    expect((await api.request('PUT', `/cobv/${taken}`, validCobV({ loc: { id: mine.id } }))).status).toBe(201);
    const theirs = await createLoc(other);
    const before = await events();
    // The contract's own words (CobVOperacaoInvalida's violations); another receiver's location does not exist here.
    const reasons = new Map([
      [999999999, 'O location referenciado por cobv.loc.id inexiste.'],
      [mine.id, 'O location referenciado por cobv.loc.id já está sendo utilizado por outra cobrança.'],
      [theirs.id, 'O location referenciado por cobv.loc.id inexiste.'],
    ]);
    for (const [id, razao] of reasons) {
      const txid = newTxid('rf');
      const refused = await api.request('PUT', `/cobv/${txid}`, validCobV({ loc: { id } }));
      expectProblem(refused, 400, 'CobVOperacaoInvalida', 'cobv.loc.id');
      expect(refused.body.violacoes).toEqual([{ razao, propriedade: 'cobv.loc.id', valor: String(id) }]);
      expectProblem(await api.request('GET', `/cobv/${txid}`), 404, 'CobVNaoEncontrada');
    }
    // A refused charge (here: a due date in the past) claims no location either.
    const free = await createLoc();
    const afterCreate = await events();
    expectProblem(await api.request('PUT', `/cobv/${newTxid('bd')}`, validCobV({ loc: { id: free.id } }, -3)), 400, 'CobVOperacaoInvalida', 'cobv.calendario.dataDeVencimento');
    expect(await events()).toBe(afterCreate);
    expect((await api.request('GET', `/loc/${free.id}`)).body.txid).toBeUndefined();
    expect(afterCreate).toBe(before + 1);
  });

  it('of two charges racing for one location, exactly one gets it', async () => {
    for (let round = 0; round < 5; round++) {
      const loc = await createLoc();
      const txids = [newTxid('ra'), newTxid('rb'), newTxid('rc')];
      const answers = await Promise.all(txids.map((t) => api.request('PUT', `/cobv/${t}`, validCobV({ loc: { id: loc.id } }))));
      const won = answers.filter((r) => r.status === 201);
      expect(won).toHaveLength(1);
      for (const r of answers.filter((x) => x.status !== 201)) expectProblem(r, 400, 'CobVOperacaoInvalida', 'cobv.loc.id');
      expect((await api.request('GET', `/loc/${loc.id}`)).body.txid).toBe(won[0].body.txid);
    }
  });

  it("another receiver's location answers as absent everywhere", async () => {
    const theirs = await createLoc(other);
    expectProblem(await api.request('GET', `/loc/${theirs.id}`), 404, 'PayloadLocationNaoEncontrado');
    expectProblem(await api.request('DELETE', `/loc/${theirs.id}/txid`), 404, 'PayloadLocationNaoEncontrado');
    const list = await api.request('GET', `/loc?${WHOLE_TIME}&paginacao.itensPorPagina=1000`);
    expect(list.body.loc.map((l: { id: number }) => l.id)).not.toContain(theirs.id);
    expect((await api.request('GET', `/loc/${theirs.id}`, undefined, other)).status).toBe(200);
  });

  it('a charge made without loc.id has an implicit location, listed and readable with its txid', async () => {
    const txid = newTxid('im');
    const put = await api.request('PUT', `/cobv/${txid}`, validCobV());
    expect(put.status).toBe(201);
    const got = await api.request('GET', `/loc/${put.body.loc.id}`);
    expect(got.body).toEqual({ id: put.body.loc.id, txid, location: put.body.location, tipoCob: 'cobv', criacao: put.body.loc.criacao });
  });

  it('GET /loc filters by period, txIdPresente and tipoCob, and paginates', async () => {
    const from = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const free = await createLoc();
    const linked = await createLoc();
    const txid = newTxid('ls');
    expect((await api.request('PUT', `/cobv/${txid}`, validCobV({ loc: { id: linked.id } }))).status).toBe(201);
    const implicit = (await api.request('PUT', `/cobv/${newTxid('li')}`, validCobV())).body.loc.id as number;
    const to = new Date(Date.now() + 1000).toISOString();
    const list = async (q: string) => {
      const r = await api.request('GET', `/loc?inicio=${from}&fim=${to}${q}`);
      expect(r.status).toBe(200);
      return r.body;
    };
    const ids = (body: { loc: { id: number }[] }) => body.loc.map((l) => l.id);
    expect(ids(await list(''))).toEqual([free.id, linked.id, implicit]);
    expect(ids(await list('&txIdPresente=false'))).toEqual([free.id]);
    expect(ids(await list('&txIdPresente=true'))).toEqual([linked.id, implicit]);
    expect(ids(await list('&tipoCob=cobv'))).toHaveLength(3);
    expect(ids(await list('&tipoCob=cob'))).toEqual([]);
    const page = await list('&paginacao.itensPorPagina=2&paginacao.paginaAtual=1');
    expect(ids(page)).toEqual([implicit]);
    expect(page.parametros.paginacao).toEqual({ paginaAtual: 1, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 });
    expect((await list('&txIdPresente=true')).parametros).toMatchObject({ txIdPresente: true });
    expect(ids(await list('')).length).toBe(3);
    const old = await api.request('GET', '/loc?inicio=2000-01-01T00:00:00Z&fim=2000-01-02T00:00:00Z');
    expect(old.body.loc).toEqual([]);
    for (const q of ['inicio=2020-01-02T00:00:00Z&fim=2020-01-01T00:00:00Z', 'inicio=x&fim=2020-01-01T00:00:00Z', `${WHOLE_TIME}&txIdPresente=sim`, `${WHOLE_TIME}&tipoCob=rec`, `${WHOLE_TIME}&paginacao.paginaAtual=-1`, 'fim=2020-01-01T00:00:00Z'])
      expectProblem(await api.request('GET', `/loc?${q}`), 400, 'PayloadLocationConsultaInvalida');
  });

  it('DELETE /loc/{id}/txid unlinks an explicit location (idempotently); the charge loses it; another charge may take it', async () => {
    const loc = await createLoc();
    const txid = newTxid('ul');
    expect((await api.request('PUT', `/cobv/${txid}`, validCobV({ loc: { id: loc.id } }))).status).toBe(201);
    const del = await api.request('DELETE', `/loc/${loc.id}/txid`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual(loc);
    const charge = (await api.request('GET', `/cobv/${txid}`)).body;
    expect(charge).not.toHaveProperty('loc');
    expect(charge).not.toHaveProperty('location');
    expect(charge).not.toHaveProperty('pixCopiaECola');
    expect(charge.status).toBe('ATIVA');
    // No location, no BR Code: the QR code route says so instead of failing (it answered 500).
    expectProblem(await api.request('GET', `/cobv/${txid}/qrcode`), 400, 'CobVOperacaoInvalida', 'cobv.loc');
    expect((await api.request('GET', `/loc/${loc.id}`)).body).toEqual(loc);
    const before = await events();
    expect((await api.request('DELETE', `/loc/${loc.id}/txid`)).body).toEqual(loc);
    expect(await events()).toBe(before);
    const next = newTxid('un');
    expect((await api.request('PUT', `/cobv/${next}`, validCobV({ loc: { id: loc.id } }))).body.loc.txid).toBe(next);
    expect((await api.request('GET', `/loc/${loc.id}`)).body.txid).toBe(next);
  });

  it('DELETE /loc/{id}/txid unlinks an implicit location; GET /cobv?locationPresente=false finds the charge', async () => {
    const txid = newTxid('ui');
    const put = (await api.request('PUT', `/cobv/${txid}`, validCobV())).body;
    const del = await api.request('DELETE', `/loc/${put.loc.id}/txid`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: put.loc.id, location: put.location, tipoCob: 'cobv', criacao: put.loc.criacao });
    expect((await api.request('GET', `/cobv/${txid}`)).body).not.toHaveProperty('location');
    expect((await api.request('GET', `/loc/${put.loc.id}`)).body).not.toHaveProperty('txid');
    const without = await api.request('GET', `/cobv?${WHOLE_TIME}&locationPresente=false&paginacao.itensPorPagina=1000`);
    expect(without.body.cobs.map((c: { txid: string }) => c.txid)).toContain(txid);
    const withLoc = await api.request('GET', `/cobv?${WHOLE_TIME}&locationPresente=true&paginacao.itensPorPagina=1000`);
    expect(withLoc.body.cobs.map((c: { txid: string }) => c.txid)).not.toContain(txid);
  });

  it('a freed implicit location stays unusable (ADR 12), refused as existing but not available, not as absent; nothing stored', async () => {
    const razao = (r: ApiResponse) => {
      expectProblem(r, 400, 'CobVOperacaoInvalida', 'cobv.loc.id');
      return r.body.violacoes.find((v: { propriedade: string }) => v.propriedade === 'cobv.loc.id').razao as string;
    };
    const owner = newTxid('fo');
    const implicit = (await api.request('PUT', `/cobv/${owner}`, validCobV())).body.loc.id as number;
    // Still serving its charge: another charge is told so.
    expect(razao(await api.request('PUT', `/cobv/${newTxid('fb')}`, validCobV({ loc: { id: implicit } })))).toBe('O location referenciado por cobv.loc.id já está sendo utilizado por outra cobrança.');
    expect((await api.request('DELETE', `/loc/${implicit}/txid`)).status).toBe(200);
    expect((await api.request('GET', `/loc/${implicit}`)).status).toBe(200);
    const before = await events();
    const freed = 'O location referenciado por cobv.loc.id existe, mas não está disponível para esta cobrança.';
    const next = newTxid('fn');
    expect(razao(await api.request('PUT', `/cobv/${next}`, validCobV({ loc: { id: implicit } })))).toBe(freed);
    expectProblem(await api.request('GET', `/cobv/${next}`), 404, 'CobVNaoEncontrada');
    // Nor can the charge it served take it back, by PUT or PATCH.
    expect(razao(await api.request('PUT', `/cobv/${owner}`, validCobV({ loc: { id: implicit } })))).toBe(freed);
    expect(razao(await api.request('PATCH', `/cobv/${owner}`, { loc: { id: implicit } }))).toBe(freed);
    // An id no location has is still "inexiste".
    expect(razao(await api.request('PUT', `/cobv/${newTxid('fx')}`, validCobV({ loc: { id: 999999999 } })))).toBe('O location referenciado por cobv.loc.id inexiste.');
    expect(await events()).toBe(before);
  });

    it('replay rebuilds rm_loc identical to the live one', async () => {
    const snapshot = async () => (await pool.query('SELECT id, doc, recebedor_id, txid, tipo_cob, criacao FROM rm_loc ORDER BY id')).rows;
    const before = await snapshot();
    expect(before.length).toBeGreaterThan(10);
    const store = await PostgresEventStore.create({ pool, listen: false });
    try {
      expect((await replayProjection(store, pool, locProjection)).phase).toBe('done');
    } finally {
      await store.close();
    }
    expect(await snapshot()).toEqual(before);
  });
});
