import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { PostgresEventStore } from '@pix/event-store';
import { cobvProjection, locProjection, replayProjection } from '@pix/read-models';
import { createResponseValidator } from '@pix/testing';
import { LOCAL_KEY, newTxid, startApi, validCobV, type ApiResponse, type RunningApi } from '../support/api-harness';
import { provisionAccess } from '../support/api-process';

// A charge unlinked from its location (DELETE /loc/{id}/txid) takes a location made by POST /loc
// through PATCH /cobv/{txid} loc.id (ADR 12): every reader shows it; of charges racing for one
// location exactly one gets it; a location it cannot take is refused with the true reason and
// nothing is stored. Every answer is checked against the official contract by the harness.
jest.setTimeout(120_000);

const PROBLEM = 'https://pix.bcb.gov.br/api/v2/error/';
const WHOLE_TIME = 'inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z';
const OTHER = { id: 'outra-loja', nome: 'Outra Loja Ltda', cnpj: '11222333000181', logradouro: 'Rua B, 2', cidade: 'Recife', uf: 'PE', cep: '50000000' };
const OTHER_CLIENT = { clientId: 'outra-loja-app', secret: 'outra-loja-secret-0123456789' };
const RAZAO = {
  inexiste: 'O location referenciado por cobv.loc.id inexiste.',
  usado: 'O location referenciado por cobv.loc.id já está sendo utilizado por outra cobrança.',
  indisponivel: 'O location referenciado por cobv.loc.id existe, mas não está disponível para esta cobrança.',
};
const validator = createResponseValidator();

type Loc = { id: number; location: string; tipoCob: string; criacao: string };

describe('PATCH /cobv/{txid} loc.id gives an unlinked charge a location', () => {
  let api: RunningApi;
  let pool: Pool;
  let other: Record<string, string>;

  const events = async () => Number((await pool.query('SELECT count(*)::int AS n FROM es_events')).rows[0].n);
  const createLoc = async (headers: Record<string, string> = {}): Promise<Loc> => {
    const r = await api.request('POST', '/loc', { tipoCob: 'cobv' }, headers);
    expect(r.status).toBe(201);
    return r.body;
  };
  /** A charge made with an implicit location, then unlinked from it: no loc, location, pixCopiaECola. */
  const unlinkedCharge = async (prefix: string) => {
    const txid = newTxid(prefix);
    const put = await api.request('PUT', `/cobv/${txid}`, validCobV());
    expect(put.status).toBe(201);
    expect((await api.request('DELETE', `/loc/${put.body.loc.id}/txid`)).status).toBe(200);
    expect((await api.request('GET', `/cobv/${txid}`)).body).not.toHaveProperty('loc');
    return { txid, implicit: put.body.loc.id as number };
  };
  const refusedOnLocId = (r: ApiResponse) => {
    expect(r.status).toBe(400);
    expect(r.body.type).toBe(`${PROBLEM}CobVOperacaoInvalida`);
    return r.body.violacoes.find((v: { propriedade: string }) => v.propriedade === 'cobv.loc.id')?.razao as string;
  };
  /** GET on the location as a payer's bank does (no OAuth), checked against the contract's location server. */
  const payload = async (location: string) => {
    const path = location.slice(location.indexOf('/'));
    const r = await fetch(`${api.baseUrl}${path}`);
    const text = await r.text();
    const result = validator.validateResponse({ method: 'GET', path: path.replace(/^\/qr\/v2/, ''), status: r.status, contentType: r.headers.get('content-type') ?? undefined, body: text, server: 'location' });
    if (!result.valid) throw new Error(`GET ${path} → ${r.status} violates the contract:\n${result.errors.join('\n')}\n${text.slice(0, 1000)}`);
    return { status: r.status, contentType: r.headers.get('content-type'), jws: JSON.parse(Buffer.from(text.split('.')[1] ?? '', 'base64url').toString('utf8') || 'null') };
  };
  const listed = async (present: boolean) =>
    (await api.request('GET', `/cobv?${WHOLE_TIME}&locationPresente=${present}&paginacao.itensPorPagina=1000`)).body.cobs.map((c: { txid: string }) => c.txid);

  beforeAll(async () => {
    api = await startApi({ env: { LOCAL_PIX_KEY: LOCAL_KEY } });
    pool = new Pool({ connectionString: api.db.url });
    await provisionAccess(api.db.url, { receiver: OTHER, chaves: ['financeiro@outraloja.com.br'], client: OTHER_CLIENT });
    other = { authorization: `Bearer ${await api.tokenFor(OTHER_CLIENT)}` };
  });
  afterAll(async () => {
    await pool?.end();
    await api?.stop();
  });

  it('links it: PATCH, GET /cobv, GET /loc/{id}, the payload location and locationPresente all show the new location; a retry stores nothing', async () => {
    const { txid, implicit } = await unlinkedCharge('pl');
    const loc = await createLoc();
    expect(await listed(false)).toContain(txid);
    const patched = await api.request('PATCH', `/cobv/${txid}`, { loc: { id: loc.id } });
    expect(patched.status).toBe(200);
    // The contract's `revisao` does not count a change of `loc` alone.
    expect(patched.body).toMatchObject({ txid, revisao: 0, status: 'ATIVA', location: loc.location, loc: { id: loc.id, location: loc.location, tipoCob: 'cobv', criacao: loc.criacao, txid } });
    expect(patched.body.pixCopiaECola).toContain(loc.location);
    const got = await api.request('GET', `/cobv/${txid}`);
    expect(got.body).toEqual(patched.body);
    expect((await api.request('GET', `/cobv/${txid}?revisao=1`)).body.type).toMatch(/CobVConsultaInvalida$/);
    expect((await api.request('GET', `/loc/${loc.id}`)).body).toEqual({ ...loc, txid });
    expect((await api.request('GET', `/loc/${implicit}`)).body).not.toHaveProperty('txid');
    const served = await payload(loc.location);
    expect(served.status).toBe(200);
    expect(served.contentType).toBe('application/jose');
    expect(served.jws).toMatchObject({ txid, revisao: 0, status: 'ATIVA' });
    expect(await listed(true)).toContain(txid);
    expect(await listed(false)).not.toContain(txid);
    const before = await events();
    expect((await api.request('PATCH', `/cobv/${txid}`, { loc: { id: loc.id } })).body.revisao).toBe(0);
    expect(await events()).toBe(before);
    // Linked now: another location of this receiver, even a free one, is not for it.
    const free = await createLoc();
    const afterCreate = await events();
    expect(refusedOnLocId(await api.request('PATCH', `/cobv/${txid}`, { loc: { id: free.id } }))).toBe(RAZAO.indisponivel);
    expect(await events()).toBe(afterCreate);
    expect((await api.request('GET', `/loc/${free.id}`)).body).not.toHaveProperty('txid');
  });

  it('links together with a content change in one revision', async () => {
    const { txid } = await unlinkedCharge('pc');
    const loc = await createLoc();
    const patched = await api.request('PATCH', `/cobv/${txid}`, { loc: { id: loc.id }, valor: { original: '99.90' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ revisao: 1, valor: { original: '99.90' }, loc: { id: loc.id, txid } });
  });

  it('of charges racing PATCH to one location exactly one gets it; the others are told it is taken and stay without one', async () => {
    for (let round = 0; round < 4; round++) {
      const loc = await createLoc();
      const charges = await Promise.all(['ra', 'rb', 'rc'].map(unlinkedCharge));
      const answers = await Promise.all(charges.map(({ txid }) => api.request('PATCH', `/cobv/${txid}`, { loc: { id: loc.id } })));
      const won = answers.filter((r) => r.status === 200);
      expect(won).toHaveLength(1);
      for (const r of answers.filter((x) => x.status !== 200)) expect(refusedOnLocId(r)).toBe(RAZAO.usado);
      const winner = won[0].body.txid as string;
      expect((await api.request('GET', `/loc/${loc.id}`)).body.txid).toBe(winner);
      for (const { txid } of charges.filter((c) => c.txid !== winner)) {
        const loser = (await api.request('GET', `/cobv/${txid}`)).body;
        expect(loser).not.toHaveProperty('location');
        expect(loser.revisao).toBe(0);
      }
    }
  });

  it("another receiver's location is absent here (inexiste), and nothing is stored", async () => {
    const { txid } = await unlinkedCharge('ot');
    const theirs = await createLoc(other);
    const before = await events();
    expect(refusedOnLocId(await api.request('PATCH', `/cobv/${txid}`, { loc: { id: theirs.id } }))).toBe(RAZAO.inexiste);
    expect(refusedOnLocId(await api.request('PATCH', `/cobv/${txid}`, { loc: { id: 999999999 } }))).toBe(RAZAO.inexiste);
    expect(await events()).toBe(before);
    expect((await api.request('GET', `/loc/${theirs.id}`, undefined, other)).body).not.toHaveProperty('txid');
    expect((await api.request('GET', `/cobv/${txid}`)).body).not.toHaveProperty('location');
  });

  it('a location serving another charge, its own freed implicit location, a refused content or a removed charge: refused, nothing stored', async () => {
    const { txid, implicit } = await unlinkedCharge('tk');
    const taken = await createLoc();
    expect((await api.request('PUT', `/cobv/${newTxid('ow')}`, validCobV({ loc: { id: taken.id } }))).status).toBe(201);
    const free = await createLoc();
    const before = await events();
    expect(refusedOnLocId(await api.request('PATCH', `/cobv/${txid}`, { loc: { id: taken.id } }))).toBe(RAZAO.usado);
    expect(refusedOnLocId(await api.request('PATCH', `/cobv/${txid}`, { loc: { id: implicit } }))).toBe(RAZAO.indisponivel);
    // The charge is decided first: a refused revision claims nothing.
    const zero = await api.request('PATCH', `/cobv/${txid}`, { loc: { id: free.id }, valor: { original: '0.00' } });
    expect(zero.status).toBe(400);
    expect(zero.body.violacoes.map((v: { propriedade: string }) => v.propriedade)).toContain('cobv.valor.original');
    expect(await events()).toBe(before);
    expect((await api.request('GET', `/loc/${free.id}`)).body).not.toHaveProperty('txid');
    expect((await api.request('GET', `/cobv/${txid}`)).body).toMatchObject({ revisao: 0 });
    expect((await api.request('PATCH', `/cobv/${txid}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).status).toBe(200);
    const removed = await events();
    const r = await api.request('PATCH', `/cobv/${txid}`, { loc: { id: free.id } });
    expect(r.status).toBe(400);
    expect(r.body.violacoes.map((v: { propriedade: string }) => v.propriedade)).toContain('cobv.status');
    expect(await events()).toBe(removed);
    expect((await api.request('GET', `/loc/${free.id}`)).body).not.toHaveProperty('txid');
  });

  it('a claim left by a request that died before its charge\'s append is let go after a minute; a recent one is a request under way and stands', async () => {
    const store = await PostgresEventStore.create({ pool, listen: false });
    // What a kill -9 between the claim and the charge's append leaves: the location names a charge that never got it.
    const orphanClaim = async (loc: Loc, minutesAgo: number) => {
      const { rows } = await pool.query<{ stream_id: string }>(`SELECT stream_id FROM es_events WHERE event_type = 'LocationCriada' AND (data->>'id')::bigint = $1`, [loc.id]);
      const em = new Date(Date.now() - minutesAgo * 60_000).toISOString();
      await store.appendToStream(rows[0].stream_id, [{ id: randomUUID(), type: 'LocationVinculada', data: { txid: newTxid('morto'), em } }], 0n);
    };
    try {
      const [stale, recent] = [await createLoc(), await createLoc()];
      await orphanClaim(stale, 2);
      await orphanClaim(recent, 0);
      const { txid } = await unlinkedCharge('orf');
      expect(refusedOnLocId(await api.request('PATCH', `/cobv/${txid}`, { loc: { id: recent.id } }))).toBe(RAZAO.usado);
      const patched = await api.request('PATCH', `/cobv/${txid}`, { loc: { id: stale.id } });
      expect([patched.status, patched.body.loc?.id]).toEqual([200, stale.id]);
      expect((await api.request('GET', `/loc/${stale.id}`)).body.txid).toBe(txid);
      // The recent one is an operator's to free (as any claim): the read models then agree with a replay again.
      expect((await api.request('DELETE', `/loc/${recent.id}/txid`)).status).toBe(200);
    } finally {
      await store.close();
    }
  });

  it('replay rebuilds rm_cobv and rm_loc identical to the live ones (links included)', async () => {
    const snapshot = async (table: string) => (await pool.query(`SELECT * FROM ${table} ORDER BY id`)).rows;
    const before = { cobv: await snapshot('rm_cobv'), loc: await snapshot('rm_loc') };
    expect(before.cobv.some((r) => r.doc.revisao >= 1 && r.doc.loc?.id > 0)).toBe(true);
    const store = await PostgresEventStore.create({ pool, listen: false });
    try {
      expect((await replayProjection(store, pool, cobvProjection)).phase).toBe('done');
      expect((await replayProjection(store, pool, locProjection)).phase).toBe('done');
    } finally {
      await store.close();
    }
    expect({ cobv: await snapshot('rm_cobv'), loc: await snapshot('rm_loc') }).toEqual(before);
  });
});
