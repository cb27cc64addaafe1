import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { settledBatch } from '../support/lotecobv-expect';

jest.setTimeout(180_000);

const statuses = async (api: RunningApi, id: string) => (await api.request('GET', `/lotecobv/${id}`)).body.cobsv.map((c: any) => c.status) as string[];

// Audit, 2026-11-27: a round took 100 requests of every pending batch, with no bound on the round.
// Fifty-five batches of 1,000 made rounds of 5,500 requests (30-80 s each on this machine), and a
// batch of one request sent meanwhile waited for the round under way and then for the whole next
// one: 71 s. Many batches starved a small one, whoever sent them.
describe('lotecobv: a round is bounded, so many batches never starve a small one', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi({ env: { LOTECOBV_CONCURRENCY: '2' } });
  });
  afterAll(async () => api?.stop());

  it('a one-request batch sent after 60 batches of 100 is decided while thousands of their requests still wait', async () => {
    // Invalid requests (NEGADA) are the cheapest to decide: what is measured is the order.
    const denied = (n: number, tag: string) => Array.from({ length: n }, () => ({ txid: newTxid(tag), ...validCobV({ valor: { original: '0.00' } }) }));
    const many = Array.from({ length: 60 }, (_, i) => String(7100 + i));
    const puts = await Promise.all(many.map((id) => api.request('PUT', `/lotecobv/${id}`, { descricao: 'Muitos', cobsv: denied(100, 'm') })));
    expect(puts.map((p) => p.status)).toEqual(many.map(() => 202));
    expect((await api.request('PUT', '/lotecobv/7200', { descricao: 'Um', cobsv: [{ txid: newTxid('one'), ...validCobV() }] })).status).toBe(202);
    let one: string[] = [];
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
      one = await statuses(api, '7200');
      if (one[0] !== 'EM_PROCESSAMENTO') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(one).toEqual(['CRIADA']);
    let waiting = 0;
    for (const id of many) waiting += (await statuses(api, id)).filter((s) => s === 'EM_PROCESSAMENTO').length;
    // The old unbounded round recorded all 6,001 together: 0 waited. Bounded, the small batch is in
    // the first or second round of 1,000, so 4,000 or more wait then; the margin is for the rounds
    // that go on while the 60 batches are counted (on a fast machine, a round a second or so).
    expect(waiting).toBeGreaterThan(1000);
    for (const id of many) expect((await settledBatch(api, id, 120_000)).cobsv.every((c: any) => c.status === 'NEGADA')).toBe(true);
  });
});
