import { Pool } from 'pg';
import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { settledBatch } from '../support/lotecobv-expect';

jest.setTimeout(120_000);

/**
 * A batch's stream grows by a round of requests and their decisions at every PUT (ADR 6): past
 * 500 events its commands fold a snapshot and what follows, and still decide as from the start.
 */
describe('lotecobv: a long batch stream is snapshotted', () => {
  let api: RunningApi;
  let pool: Pool;
  beforeAll(async () => {
    api = await startApi();
    pool = new Pool({ connectionString: api.db.url, max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await api?.stop();
  });

  it('rounds, a PATCH and a repeated PUT after the snapshot decide exactly as without it', async () => {
    const id = String(Date.now() % 1_000_000_000);
    const txids = Array.from({ length: 300 }, () => newTxid('s'));
    const round = (pagador: string) => ({ descricao: 'Longo', cobsv: txids.map((txid) => ({ txid, ...validCobV({ solicitacaoPagador: pagador }) })) });
    expect((await api.request('PUT', `/lotecobv/${id}`, round('r0'))).status).toBe(202);
    await settledBatch(api, id);
    expect((await api.request('PUT', `/lotecobv/${id}`, round('r1'))).status).toBe(202);
    await settledBatch(api, id);
    // 1 + 300 + 1 + 300 events: a snapshot was taken on the way, at a revision of this stream.
    const snapshot = (await pool.query(`SELECT s.revision, s.state->'decididas' AS decididas FROM es_snapshots s JOIN es_events e ON e.stream_id = s.stream_id AND e.stream_revision = s.revision AND e.event_id = s.event_id WHERE s.stream_id LIKE $1`, [`lotecobv-%/${id}`])).rows;
    expect(snapshot).toHaveLength(1);
    expect(Number(snapshot[0].revision)).toBeGreaterThanOrEqual(499);

    const patched = await api.request('PATCH', `/lotecobv/${id}`, { cobsv: [{ txid: txids[7], solicitacaoPagador: 'depois' }] });
    expect(patched.status).toBe(202);
    const afterPatch = await settledBatch(api, id);
    expect(afterPatch.cobsv.every((c: { status: string }) => c.status === 'CRIADA')).toBe(true);
    expect((await api.request('GET', `/cobv/${txids[7]}`)).body.solicitacaoPagador).toBe('depois');
    expect((await api.request('GET', `/cobv/${txids[8]}`)).body).toMatchObject({ solicitacaoPagador: 'r1', revisao: 1 });

    // The last PUT again: the PATCH since makes it a round (the snapshot kept the last PUT), and it takes effect.
    expect((await api.request('PUT', `/lotecobv/${id}`, round('r1'))).status).toBe(202);
    const again = await settledBatch(api, id);
    expect(again.cobsv.every((c: { status: string }) => c.status === 'CRIADA')).toBe(true);
    expect((await api.request('GET', `/cobv/${txids[7]}`)).body.solicitacaoPagador).toBe('r1');
    // And once more: now it repeats the last PUT with nothing changed since, so nothing is recorded.
    const events = async () => Number((await pool.query(`SELECT count(*) FROM es_events WHERE stream_id LIKE $1`, [`lotecobv-%/${id}`])).rows[0].count);
    const before = await events();
    expect((await api.request('PUT', `/lotecobv/${id}`, round('r1'))).status).toBe(202);
    expect(await events()).toBe(before);
    // Every request of every round decided once: 300 decisions a PUT round, 1 for the PATCH.
    const decisions = (await pool.query(`SELECT count(*) AS n, count(DISTINCT event_id) AS ids FROM es_events WHERE stream_id LIKE $1 AND event_type = 'SolicitacaoLoteDecidida'`, [`lotecobv-%/${id}`])).rows[0];
    expect({ n: Number(decisions.n), ids: Number(decisions.ids) }).toEqual({ n: 901, ids: 901 });
  });
});
