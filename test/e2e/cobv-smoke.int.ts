import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';

describe('cobv over HTTP (smoke)', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => api?.stop());

  it('creates, reads, lists and revises a charge, every answer valid against the official contract', async () => {
    const txid = newTxid();
    const put = await api.request('PUT', `/cobv/${txid}`, validCobV());
    expect(put.status).toBe(201);
    expect(put.body).toMatchObject({ txid, revisao: 0, status: 'ATIVA', valor: { original: '123.45' } });
    const get = await api.request('GET', `/cobv/${txid}`);
    expect(get.status).toBe(200);
    expect(get.headers.get('x-correlation-id')).toEqual(expect.any(String));
    expect(get.headers.get('cache-control')).toBe('no-store');
    expect(get.headers.get('x-content-type-options')).toBe('nosniff');
    const list = await api.request('GET', `/cobv?inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z`);
    expect(list.body.cobs.map((c: any) => c.txid)).toContain(txid);
    const patch = await api.request('PATCH', `/cobv/${txid}`, { valor: { original: '99.90' } });
    expect(patch.body).toMatchObject({ revisao: 1, valor: { original: '99.90' } });
  });
});
