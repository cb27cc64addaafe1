import { LOCAL_KEY, newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';

// A request taking a POST /loc location (PATCH linking an unlinked charge, PUT creating one on it)
// racing DELETE /loc/{id}/txid, then another charge taking the freed location: never two charges
// on one location, and GET /loc/{id} agrees with the charges (ADR 12, "write, then read the
// other's stream"). Without the re-reads, about a third of the rounds ended with both charges
// showing the location.
jest.setTimeout(300_000);

const ROUNDS = 30;
const SPREAD = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a location claimed while DELETE /loc/{id}/txid frees it', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startApi({ env: { LOCAL_PIX_KEY: LOCAL_KEY } });
  });
  afterAll(async () => {
    await api?.stop();
  });

  const createLoc = async (): Promise<number> => {
    const r = await api.request('POST', '/loc', { tipoCob: 'cobv' });
    expect(r.status).toBe(201);
    return r.body.id;
  };
  const unlinkedCharge = async (prefix: string) => {
    const txid = newTxid(prefix);
    const put = await api.request('PUT', `/cobv/${txid}`, validCobV());
    expect(put.status).toBe(201);
    expect((await api.request('DELETE', `/loc/${put.body.loc.id}/txid`)).status).toBe(200);
    return txid;
  };
  const locOf = async (txid: string): Promise<number | undefined> => (await api.request('GET', `/cobv/${txid}`)).body.loc?.id;

  /** Each round: `take` races the DELETE (0–5 ms apart), then charge B asks for the location. */
  async function rounds(prepare: () => Promise<string>, take: (txid: string, loc: number) => Promise<number>) {
    const doubles: number[] = [];
    const disagreements: number[] = [];
    for (let k = 0; k < ROUNDS; k++) {
      const [A, B] = [await prepare(), await unlinkedCharge('rb')];
      const L = await createLoc();
      // DELETEs a millisecond apart: one of them is likely to land between the claim and the append.
      const taking = take(A, L);
      const deletes = Array.from({ length: SPREAD }, async (_, i) => (await sleep(i + (k % 3)), api.request('DELETE', `/loc/${L}/txid`)));
      const [status, ...dels] = await Promise.all([taking, ...deletes]);
      expect([200, 201]).toContain(status);
      for (const d of dels) expect((d as { status: number }).status).toBe(200);
      await api.request('PATCH', `/cobv/${B}`, { loc: { id: L } });
      const served = [];
      for (const txid of [A, B]) if ((await locOf(txid)) === L) served.push(txid);
      if (served.length > 1) doubles.push(k);
      if (served[0] !== (await api.request('GET', `/loc/${L}`)).body.txid) disagreements.push(k);
    }
    expect({ doubles, disagreements }).toEqual({ doubles: [], disagreements: [] });
  }

  it(`PATCH linking ‖ DELETE, then PATCH of another charge (${ROUNDS} rounds)`, async () => {
    await rounds(
      () => unlinkedCharge('ra'),
      async (txid, L) => (await api.request('PATCH', `/cobv/${txid}`, { loc: { id: L } })).status,
    );
  });

  it(`PUT creating on loc.id ‖ DELETE, then PATCH of another charge (${ROUNDS} rounds)`, async () => {
    await rounds(
      async () => newTxid('rp'),
      async (txid, L) => (await api.request('PUT', `/cobv/${txid}`, validCobV({ loc: { id: L } }))).status,
    );
  });
});
