import { Client } from 'pg';
import { parseBrCode } from '@pix/domain';
import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { settledBatch } from '../support/lotecobv-expect';
import { WHOLE_TIME } from '../support/cobv-expect';

jest.setTimeout(60_000);

// Every id PUT /lotecobv/{id} accepts must be nameable by GET /cobv?loteCobVId= (an int32 in the
// contract): ids 0..2147483647 are accepted, larger ones refused at the PUT (ADR 0004).
const PROBLEM = 'https://pix.bcb.gov.br/api/v2/error/';
const requests = (txids: string[]) => txids.map((txid) => ({ txid, ...validCobV() }));


describe('lotecobv ids: every accepted id is usable in the loteCobVId filter', () => {
  let api: RunningApi;
  let db: Client;
  const eventCount = async () => Number((await db.query('SELECT count(*)::int AS n FROM es_events')).rows[0].n);
  beforeAll(async () => {
    api = await startApi();
    db = new Client({ connectionString: api.db.url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await api?.stop();
  });

  it.each(['2147483647', '0', '000000000000042'])('accepts %s, and GET /cobv?loteCobVId= lists its charges', async (sent) => {
    const id = String(Number(sent));
    const txids = [newTxid('max'), newTxid('max')];
    expect((await api.request('PUT', `/lotecobv/${sent}`, { descricao: `Lote ${sent}`, cobsv: requests(txids) })).status).toBe(202);
    const lote = await settledBatch(api, id);
    expect(lote.id).toBe(Number(id));
    expect(lote.cobsv.every((c: any) => c.status === 'CRIADA')).toBe(true);
    const listed = await api.request('GET', `/cobv?${WHOLE_TIME}&loteCobVId=${id}`);
    expect(listed.status).toBe(200);
    expect(listed.body.parametros.loteCobVId).toBe(Number(id));
    expect(listed.body.cobs.map((c: any) => c.txid)).toEqual(expect.arrayContaining(txids));
    for (const c of listed.body.cobs) {
      // Charges made by a batch carry the same scheme-less location as their BR Code.
      expect(parseBrCode(c.pixCopiaECola).merchantAccount.get('25')).toBe(c.location);
    }
  });

  it.each(['2147483648', '99999999999', '999999999999999', '-1', '1.5', '1e3', '+1', ' 1'])(
    'refuses %s at the PUT with LoteCobVOperacaoInvalida naming the id, and stores nothing',
    async (id) => {
      const before = await eventCount();
      const txid = newTxid('big');
      const put = await api.request('PUT', `/lotecobv/${encodeURIComponent(id)}`, { descricao: 'Grande demais', cobsv: requests([txid]) });
      expect(put.status).toBe(400);
      expect(put.body.type).toBe(`${PROBLEM}LoteCobVOperacaoInvalida`);
      expect(put.body.violacoes).toEqual([expect.objectContaining({ propriedade: 'id', valor: id })]);
      expect(await eventCount()).toBe(before);
      expect((await api.request('GET', `/cobv/${txid}`)).status).toBe(404);
      // GET and PATCH of that id answer as for any batch that does not exist.
      for (const [method, body] of [['GET', undefined], ['PATCH', { cobsv: [{ txid, solicitacaoPagador: 'x' }] }]] as const) {
        const r = await api.request(method, `/lotecobv/${encodeURIComponent(id)}`, body);
        expect([r.status, r.body.type]).toEqual([404, `${PROBLEM}LoteCobVNaoEncontrado`]);
      }
      expect(await eventCount()).toBe(before);
    },
  );

  it('the filter and the PUT agree on the bound: loteCobVId=2147483648 is itself refused', async () => {
    const r = await api.request('GET', `/cobv?${WHOLE_TIME}&loteCobVId=2147483648`);
    expect([r.status, r.body.type]).toEqual([400, `${PROBLEM}CobVConsultaInvalida`]);
  });
});
