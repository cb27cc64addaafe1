import { LOCAL_KEY, newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';

// GET /cobv/{txid}?revisao=n answers the charge's content as it last was at revision n with the
// location it has NOW (ADR 12): the contract keeps no history of `loc`, a change of `loc` alone
// keeps the revision, and a location the charge once had may serve another charge since.
jest.setTimeout(120_000);

describe('GET /cobv/{txid}?revisao=n and the location', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startApi({ env: { LOCAL_PIX_KEY: LOCAL_KEY } });
  });
  afterAll(async () => {
    await api?.stop();
  });

  const createLoc = async (): Promise<number> => (await api.request('POST', '/loc', { tipoCob: 'cobv' })).body.id;
  const get = async (txid: string, revisao?: number) => {
    const r = await api.request('GET', `/cobv/${txid}${revisao === undefined ? '' : `?revisao=${revisao}`}`);
    expect(r.status).toBe(200);
    return r.body;
  };

  it('an old revision shows the current location, not one that now serves another charge', async () => {
    const [first, second] = [await createLoc(), await createLoc()];
    const t1 = newTxid('rv');
    expect((await api.request('PUT', `/cobv/${t1}`, validCobV({ loc: { id: first } }))).status).toBe(201);
    expect((await api.request('DELETE', `/loc/${first}/txid`)).status).toBe(200);
    expect((await api.request('PATCH', `/cobv/${t1}`, { loc: { id: second } })).status).toBe(200);
    const t2 = newTxid('rw');
    expect((await api.request('PUT', `/cobv/${t2}`, validCobV({ loc: { id: first } }))).status).toBe(201);
    const now = await get(t1);
    expect(now.loc.id).toBe(second);
    expect(await get(t1, 0)).toEqual(now);
  });

  it('a PATCH that links and changes content is one revision, shown with its location', async () => {
    const t3 = newTxid('rx');
    const created = (await api.request('PUT', `/cobv/${t3}`, validCobV())).body;
    expect((await api.request('DELETE', `/loc/${created.loc.id}/txid`)).status).toBe(200);
    const loc = await createLoc();
    const patched = await api.request('PATCH', `/cobv/${t3}`, { loc: { id: loc }, valor: { original: '11.00' } });
    expect(patched.body).toMatchObject({ revisao: 1, loc: { id: loc } });
    expect(await get(t3, 1)).toEqual(patched.body);
    expect(await get(t3)).toEqual(patched.body);
    // Revision 0 has its own content, and the location the charge has now.
    const zero = await get(t3, 0);
    expect(zero).toMatchObject({ revisao: 0, valor: { original: created.valor.original }, loc: patched.body.loc, location: patched.body.location });
    expect(zero.pixCopiaECola).toContain(patched.body.location);
  });

  it('a charge without a location shows none at any revision; the current revision equals GET', async () => {
    const t4 = newTxid('ry');
    const created = (await api.request('PUT', `/cobv/${t4}`, validCobV())).body;
    expect((await api.request('PATCH', `/cobv/${t4}`, { valor: { original: '12.00' } })).body.revisao).toBe(1);
    expect((await api.request('DELETE', `/loc/${created.loc.id}/txid`)).status).toBe(200);
    const now = await get(t4);
    expect(now).not.toHaveProperty('loc');
    expect(await get(t4, 1)).toEqual(now);
    for (const member of ['loc', 'location', 'pixCopiaECola']) expect(await get(t4, 0)).not.toHaveProperty(member);
  });
});
