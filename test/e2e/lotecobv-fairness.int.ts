import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';

jest.setTimeout(120_000);

const statuses = async (api: RunningApi, id: string) => (await api.request('GET', `/lotecobv/${id}`)).body.cobsv.map((c: any) => c.status) as string[];

describe('lotecobv: fair progress', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi({ env: { LOTECOBV_CONCURRENCY: '2' } });
  });
  afterAll(async () => api?.stop());

  it('a small batch sent after a huge one is done long before the huge one', async () => {
    const requests = (n: number, tag: string) => Array.from({ length: n }, () => ({ txid: newTxid(tag), ...validCobV() }));
    expect((await api.request('PUT', '/lotecobv/9001', { descricao: 'Grande', cobsv: requests(1000, 'big') })).status).toBe(202);
    expect((await api.request('PUT', '/lotecobv/9002', { descricao: 'Pequeno', cobsv: requests(3, 'small') })).status).toBe(202);
    let small: string[] = [];
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      small = await statuses(api, '9002');
      if (small.every((s) => s !== 'EM_PROCESSAMENTO')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(small).toEqual(['CRIADA', 'CRIADA', 'CRIADA']);
    // When the small batch is done, most of the huge one is still waiting its turn.
    const big = await statuses(api, '9001');
    expect(big.filter((s) => s === 'EM_PROCESSAMENTO').length).toBeGreaterThan(500);
  });
});
