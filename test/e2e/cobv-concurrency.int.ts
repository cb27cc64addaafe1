import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { createCharge, money, readCharge, WHOLE_TIME } from '../support/cobv-expect';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Every revision 0..last of a charge, read back one by one from the history. */
async function history(api: RunningApi, txid: string, last: number): Promise<any[]> {
  return Promise.all(range(last + 1).map((r) => readCharge(api, txid, r)));
}

/** Fires the 50 distinct PUTs at once (round-robin over `apis`) and checks the outcome. */
async function fiftyConcurrentPuts(apis: RunningApi[]) {
  const txid = newTxid('race');
  const originals = range(50).map((i) => money(1000 + i * 7)); // "10.00", "10.07", ...
  const answers = await Promise.all(
    originals.map((original, i) => apis[i % apis.length].request('PUT', `/cobv/${txid}`, validCobV({ valor: { original } }))),
  );

  expect(answers.map((a) => a.status)).toEqual(originals.map(() => 201));
  // each request became exactly one revision, and its answer shows its own content at that revision
  expect(answers.map((a) => a.body.revisao).sort((a, b) => a - b)).toEqual(range(50));
  answers.forEach((a, i) => expect(a.body.valor.original).toBe(originals[i]));
  expect(new Set(answers.map((a) => a.body.loc.id)).size).toBe(1);

  for (const api of apis) {
    const current = await readCharge(api, txid);
    expect(current.revisao).toBe(49);
    const listed = (await api.request('GET', `/cobv?${WHOLE_TIME}&paginacao.itensPorPagina=1000`)).body.cobs.filter((c: any) => c.txid === txid);
    expect(listed).toHaveLength(1);
    expect(listed[0].revisao).toBe(49);
  }

  const revisions = await history(apis[0], txid, 49);
  expect(revisions.map((r) => r.revisao)).toEqual(range(50));
  expect(revisions.map((r) => r.valor.original).sort()).toEqual([...originals].sort());
  for (const a of answers) expect(revisions[a.body.revisao]).toEqual(a.body);
  expect((await apis[0].request('GET', `/cobv/${txid}?revisao=50`)).status).toBe(400);
  expect(await readCharge(apis[0], txid)).toEqual(revisions[49]);
}

describe('cobv under concurrent writes (one process)', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api?.stop());

  it('50 concurrent PUTs with 50 different bodies to one txid: all 201, one charge, revisions 0..49 each holding one body exactly once', async () => {
    await fiftyConcurrentPuts([api]);
  });

  it('20 concurrent PATCHes with distinct solicitacaoPagador: all 200, revisao + 20, each message in exactly one revision', async () => {
    const txid = newTxid('patchrace');
    await createCharge(api, txid, validCobV());
    await api.request('PUT', `/cobv/${txid}`, validCobV({ valor: { original: '55.55' } }));
    const initial = (await readCharge(api, txid)).revisao;
    expect(initial).toBe(1);
    const messages = range(20).map((i) => `mensagem concorrente ${i}`);

    const answers = await Promise.all(messages.map((m) => api.request('PATCH', `/cobv/${txid}`, { solicitacaoPagador: m })));

    expect(answers.map((a) => a.status)).toEqual(messages.map(() => 200));
    expect(answers.map((a) => a.body.revisao).sort((a, b) => a - b)).toEqual(range(20).map((i) => initial + 1 + i));
    const final = await readCharge(api, txid);
    expect(final.revisao).toBe(initial + 20);
    const revisions = await history(api, txid, initial + 20);
    expect(revisions.slice(initial + 1).map((r) => r.solicitacaoPagador).sort()).toEqual([...messages].sort());
    // a PATCH of one field keeps the rest: every revision still carries the PUT's amount
    expect(revisions.slice(initial).every((r) => r.valor.original === '55.55')).toBe(true);
  });

  it('20 concurrent identical PUTs to a new txid create one charge at revisao 0 with one location', async () => {
    const txid = newTxid('same');
    const body = validCobV({ valor: { original: '42.00' } });
    const answers = await Promise.all(range(20).map(() => api.request('PUT', `/cobv/${txid}`, body)));

    expect(answers.map((a) => a.status)).toEqual(range(20).map(() => 201));
    expect(new Set(answers.map((a) => a.body.revisao))).toEqual(new Set([0]));
    expect(new Set(answers.map((a) => a.body.loc.id)).size).toBe(1);
    expect(await readCharge(api, txid)).toEqual(answers[0].body);
    expect((await api.request('GET', `/cobv/${txid}?revisao=1`)).status).toBe(400);
  });

  it('a PATCH removing the charge racing 10 PATCHes that revise it: every revise after the removal is refused, none is lost', async () => {
    const txid = newTxid('rmrace');
    await createCharge(api, txid, validCobV());
    const revise = range(10).map((i) => api.request('PATCH', `/cobv/${txid}`, { solicitacaoPagador: `antes ${i}` }));
    const remove = api.request('PATCH', `/cobv/${txid}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
    const [removal, ...revisions] = await Promise.all([remove, ...revise]);

    expect(removal.status).toBe(200);
    const accepted = revisions.filter((r) => r.status === 200);
    expect(revisions.every((r) => r.status === 200 || (r.status === 400 && r.body.type.endsWith('/CobVOperacaoInvalida')))).toBe(true);
    expect(accepted.every((r) => r.body.revisao < removal.body.revisao)).toBe(true);
    const final = await readCharge(api, txid);
    expect(final).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: accepted.length + 1 });
    expect(removal.body.revisao).toBe(accepted.length + 1);
  });

  it('50 concurrent creations of different txids: all 201, each listed once, each with its own location id', async () => {
    const txids = range(50).map((i) => newTxid(`many${i}x`));
    const answers = await Promise.all(txids.map((t, i) => api.request('PUT', `/cobv/${t}`, validCobV({ valor: { original: money(100 + i) } }))));

    expect(answers.map((a) => a.status)).toEqual(txids.map(() => 201));
    expect(new Set(answers.map((a) => a.body.loc.id)).size).toBe(50);
    expect(new Set(answers.map((a) => a.body.location)).size).toBe(50);
    const listed = (await api.request('GET', `/cobv?${WHOLE_TIME}&paginacao.itensPorPagina=1000`)).body.cobs.map((c: any) => c.txid);
    for (const t of txids) expect(listed.filter((l: string) => l === t)).toHaveLength(1);
  });
});

describe('cobv under concurrent writes (two processes, one database)', () => {
  let a: RunningApi;
  let b: RunningApi;
  beforeAll(async () => {
    a = await startApi();
    b = await startApi({ db: a.db });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('50 concurrent PUTs split over two api processes: no lost or duplicated revision, both processes read revision 49', async () => {
    await fiftyConcurrentPuts([a, b]);
  });

  it('20 concurrent PATCHes split over two processes end at revisao + 20', async () => {
    const txid = newTxid('twoproc');
    await createCharge(a, txid, validCobV());
    const answers = await Promise.all(range(20).map((i) => (i % 2 ? a : b).request('PATCH', `/cobv/${txid}`, { solicitacaoPagador: `p${i}` })));
    expect(answers.map((r) => r.status)).toEqual(range(20).map(() => 200));
    expect(answers.map((r) => r.body.revisao).sort((x, y) => x - y)).toEqual(range(20).map((i) => i + 1));
    expect((await readCharge(a, txid)).revisao).toBe(20);
    expect((await readCharge(b, txid)).revisao).toBe(20);
  });
});
