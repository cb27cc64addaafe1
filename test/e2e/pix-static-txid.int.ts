import type { CashInPublisher } from '@pix/messaging';
import { CASH_IN_PUBLISHER } from '../../apps/api/src/infrastructure/tokens';
import { LOCAL_KEY, startApi, type RunningApi } from '../support/api-harness';
import { cashIn, officialPix } from '../support/cash-in-fixtures';
import { Receiver } from '../support/receiver';

// A Pix paid through a static QR code carries the txid of its field 62-05: 1 to 25 letters and
// digits (Manual de Padrões para Iniciação do Pix, 1.5.2). The contract's Pix.txid and the txid
// filter of GET /pix add `[a-zA-Z0-9]{1,35}` for exactly these; BCB's maintainer, on the {26,35}
// the filter had before: "Se está assim é um bug na regex. Deveria ser {1,35}" (bacen/pix-api#269),
// and "GET /pix?txid=churrasco" is his own example (bacen/pix-api#30). An audit, 2026-11-27: such
// a Pix was notified and listed, but `GET /pix?txid=` refused its txid, and the list failed the
// schema the project read into the contract (allOf with TxId's 26 to 35).
describe('a Pix with a static QR code’s txid (1 to 25 characters)', () => {
  let api: RunningApi;
  let receiver: Receiver;
  beforeAll(async () => {
    api = await startApi({ env: { LOCAL_PIX_KEY: LOCAL_KEY } });
    receiver = await Receiver.start();
    expect((await api.request('PUT', `/webhook/${LOCAL_KEY}`, { webhookUrl: `${receiver.url}/hook` })).status).toBe(200);
  });
  afterAll(async () => {
    await api?.stop();
    await receiver?.close();
  });

  it.each(['churrasco', 'A', 'PEDIDO2026ABCDEFGHIJKLMNO'])('txid %s is notified, listed, read and found by the txid filter', async (txid) => {
    const message = cashIn(txid, LOCAL_KEY, '25.00');
    await api.app.get<CashInPublisher>(CASH_IN_PUBLISHER).publish(message);
    const pix = officialPix(message);

    await receiver.waitUntil(() => receiver.requests.some((r) => r.json?.pix?.some((p: any) => p.endToEndId === message.endToEndId)), 10_000, 'the webhook');
    const notified = receiver.requests.flatMap((r) => r.json.pix).find((p: any) => p.endToEndId === message.endToEndId);
    expect(notified).toEqual(pix);

    const period = `inicio=${new Date(Date.now() - 60_000).toISOString()}&fim=${new Date(Date.now() + 60_000).toISOString()}`;
    const all = await api.request('GET', `/pix?${period}`);
    expect(all.body.pix).toContainEqual(pix);
    const found = await api.request('GET', `/pix?${period}&txid=${txid}`);
    expect(found.status).toBe(200);
    expect(found.body.pix).toEqual([pix]);
    expect(found.body.parametros.txid).toBe(txid);
    expect((await api.request('GET', `/pix/${message.endToEndId}`)).body).toEqual(pix);
  });

  it('a txid of 36 characters, or one with other characters, is still refused by the filter', async () => {
    const period = 'inicio=2020-01-01T00:00:00Z&fim=2030-01-01T00:00:00Z';
    for (const txid of ['a'.repeat(36), 'abc-def', '']) {
      const res = await api.request('GET', `/pix?${period}&txid=${txid}`);
      expect([res.status, res.body.type, res.body.violacoes?.[0]?.propriedade]).toEqual([400, 'https://pix.bcb.gov.br/api/v2/error/PixConsultaInvalida', 'txid']);
    }
  });
});
