import { MAX_RODADAS_ABERTAS } from '@pix/domain';
import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { settledBatch } from '../support/lotecobv-expect';

jest.setTimeout(180_000);

const PROBLEM = 'https://pix.bcb.gov.br/api/v2/error/';

// A client re-sending a batch faster than it was processed queued a round per request per send,
// each keeping its body in the request's row, each processed in turn: twenty sends of 1,000 made
// every send slower (0.15 → 1.3 s) and held the API's thread for up to a second (ADR 6).
describe(`lotecobv: a request has at most ${MAX_RODADAS_ABERTAS} rounds undecided`, () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApi({ env: { LOTECOBV_CONCURRENCY: '1' } });
  });
  afterAll(async () => api?.stop());

  it('refuses the rounds past the bound with 503 and Retry-After, records nothing of them, and takes rounds again once decided', async () => {
    // Other batches keep the processor busy, so the small batch's rounds are decided one a round.
    const busy = Array.from({ length: 4 }, (_, i) => String(8100 + i));
    const puts = await Promise.all(busy.map((id) => api.request('PUT', `/lotecobv/${id}`, { descricao: 'Ocupado', cobsv: Array.from({ length: 1000 }, () => ({ txid: newTxid('o'), ...validCobV() })) })));
    expect(puts.map((p) => p.status)).toEqual(busy.map(() => 202));
    const txid = newTxid('r');
    expect((await api.request('PUT', '/lotecobv/8200', { descricao: 'Um', cobsv: [{ txid, ...validCobV() }] })).status).toBe(202);
    const sends = MAX_RODADAS_ABERTAS + 4;
    const patches = await Promise.all(
      Array.from({ length: sends }, (_, k) => api.request('PATCH', '/lotecobv/8200', { cobsv: [{ txid, ...validCobV({ solicitacaoPagador: `rodada ${k + 1}` }) }] })),
    );
    const refused = patches.filter((p) => p.status === 503);
    expect(patches.filter((p) => p.status !== 503).map((p) => p.status)).toEqual(Array(sends - refused.length).fill(202));
    // The creation and 15 PATCHes fill the bound; a decision or two may land while the PATCHes arrive.
    expect(refused.length).toBeGreaterThanOrEqual(2);
    for (const r of refused) {
      expect(r.body).toMatchObject({ type: `${PROBLEM}ServicoIndisponivel`, status: 503 });
      expect(r.body.detail).toContain(txid);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Nothing of the refused ones was recorded: the last round is the creation plus the PATCHes taken.
    const settled = await settledBatch(api, '8200', 120_000);
    expect(settled.cobsv).toMatchObject([{ txid, status: 'CRIADA' }]);
    const charge = await api.request('GET', `/cobv/${txid}`);
    expect(charge.body.revisao).toBe(sends - refused.length);
    // Decided: the batch takes rounds again.
    expect((await api.request('PATCH', '/lotecobv/8200', { cobsv: [{ txid, ...validCobV({ solicitacaoPagador: 'depois' }) }] })).status).toBe(202);
    expect((await settledBatch(api, '8200', 60_000)).cobsv).toMatchObject([{ txid, status: 'CRIADA' }]);
    for (const id of busy) await settledBatch(api, id, 120_000);
  });
});
