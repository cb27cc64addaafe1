import { Client } from 'pg';
import { parseBrCode } from '@pix/domain';
import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { createCharge, readCharge, WHOLE_TIME } from '../support/cobv-expect';

// `location` and `loc.location` are the very string the BR Code carries in field 26, sub-field
// 25: scheme-less (`host/path`), as every official example shows. Charges stored by older
// versions with `https://` answer the same way, since responses are derived from stored data.

/** The URL embedded in pixCopiaECola (field 26, sub-field 25), read with the BR Code parser. */
function brCodeUrl(charge: any): string {
  const parsed = parseBrCode(charge.pixCopiaECola);
  expect(parsed.crcValid).toBe(true);
  return parsed.merchantAccount.get('25') ?? '';
}

function expectOneLocation(charge: any): void {
  expect(charge.location).toMatch(/^localhost:\d+\/qr\/v2\/cobv\/[0-9a-f]{32}$/);
  expect(charge.loc.location).toBe(charge.location);
  expect(brCodeUrl(charge)).toBe(charge.location);
}

describe('location: the same scheme-less string as the BR Code URL', () => {
  let api: RunningApi;
  let db: Client;
  beforeAll(async () => {
    api = await startApi();
    db = new Client({ connectionString: api.db.url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await api?.stop();
  });

  it('PUT, GET, GET ?revisao, PATCH and the list answer it', async () => {
    const txid = newTxid('loc');
    const created = await createCharge(api, txid, validCobV());
    expectOneLocation(created);
    expectOneLocation(await readCharge(api, txid));
    expectOneLocation(await readCharge(api, txid, 0));
    const patched = await api.request('PATCH', `/cobv/${txid}`, { solicitacaoPagador: 'Revisada' });
    expect(patched.status).toBe(200);
    expectOneLocation(patched.body);
    expect(patched.body.location).toBe(created.location);
    const listed = await api.request('GET', `/cobv?${WHOLE_TIME}`);
    const mine = listed.body.cobs.find((c: any) => c.txid === txid);
    expectOneLocation(mine);
    expect(mine.location).toBe(created.location);
  });

  it('a charge stored with https:// by an older version answers scheme-less everywhere, and keeps its location', async () => {
    const txid = newTxid('old');
    const created = await createCharge(api, txid, validCobV());
    // The old shape: the event and the read-model row both hold `https://host/path`.
    const events = await db.query(
      `UPDATE es_events SET data = jsonb_set(data, '{loc,location}', to_jsonb('https://' || (data->'loc'->>'location')))
        WHERE event_type = 'CobVCriada' AND data->>'txid' = $1 RETURNING data->'loc'->>'location' AS location`,
      [txid],
    );
    const rows = await db.query(
      `UPDATE rm_cobv SET doc = jsonb_set(doc, '{loc,location}', to_jsonb('https://' || (doc->'loc'->>'location')))
        WHERE doc->>'txid' = $1 RETURNING doc->'loc'->>'location' AS location`,
      [txid],
    );
    expect([...events.rows, ...rows.rows]).toEqual([{ location: `https://${created.location}` }, { location: `https://${created.location}` }]);

    for (const charge of [await readCharge(api, txid), await readCharge(api, txid, 0)]) {
      expectOneLocation(charge);
      expect(charge.location).toBe(created.location);
    }
    const listed = await api.request('GET', `/cobv?${WHOLE_TIME}`);
    expectOneLocation(listed.body.cobs.find((c: any) => c.txid === txid));
    const patched = await api.request('PATCH', `/cobv/${txid}`, { solicitacaoPagador: 'Depois da atualização' });
    expect(patched.status).toBe(200);
    expectOneLocation(patched.body);
    expect(patched.body.location).toBe(created.location);
    const put = await api.request('PUT', `/cobv/${txid}`, validCobV({ valor: { original: '99.90' } }));
    expect(put.status).toBe(201);
    expectOneLocation(put.body);
    expect(put.body.location).toBe(created.location);
  });
});
