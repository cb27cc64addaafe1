import { Client } from 'pg';
import { createResponseValidator, createTestDatabase, type TestDatabase } from '@pix/testing';
import { lotecobvStreamId } from '@pix/domain';
import { startApiProcess, freePort, TEST_RECEIVER, type ApiProcess } from '../support/api-process';
import { newTxid, validCobV } from '../support/api-harness';

jest.setTimeout(180_000);

const validator = createResponseValidator();
const ID = '4242';

async function lote(api: ApiProcess) {
  const r = await fetch(`${api.base}/lotecobv/${ID}`, { headers: api.headers() });
  const body: any = await r.json();
  validator.expectValidResponse({ method: 'GET', path: `/lotecobv/${ID}`, status: r.status, contentType: r.headers.get('content-type') ?? undefined, body });
  const count = (s: string) => body.cobsv.filter((c: any) => c.status === s).length;
  return { body, criadas: count('CRIADA'), negadas: count('NEGADA'), pendentes: count('EM_PROCESSAMENTO') };
}

describe('lotecobv: a crash in the middle of a 1000-request batch', () => {
  let db: TestDatabase;
  let api: ApiProcess | undefined;
  beforeAll(async () => {
    db = await createTestDatabase('lote_crash');
  });
  afterAll(async () => {
    await api?.kill();
    await db.drop();
  });

  it('loses nothing and decides every request exactly once after kill -9 and restart', async () => {
    const port = await freePort();
    // One request in a thousand at a time, so the kill surely lands mid-batch.
    api = await startApiProcess(db.url, port, { LOTECOBV_CONCURRENCY: '2' });
    const invalid = new Set(Array.from({ length: 10 }, (_, i) => i * 97 + 5));
    const cobsv = Array.from({ length: 1000 }, (_, i) => ({ txid: newTxid(`k${i}`), ...validCobV(invalid.has(i) ? { valor: { original: '0.00' } } : {}) }));
    const put = await fetch(`${api.base}/lotecobv/${ID}`, { method: 'PUT', headers: api.headers({ 'content-type': 'application/json' }), body: JSON.stringify({ descricao: 'Crash', cobsv }) });
    expect(put.status).toBe(202);

    let seen = await lote(api);
    while (seen.criadas + seen.negadas < 100) seen = await lote(api);
    await api.kill('SIGKILL');
    expect(seen.pendentes).toBeGreaterThan(0);

    api = await startApiProcess(db.url, port);
    for (const deadline = Date.now() + 120_000; (seen = await lote(api)).pendentes > 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 200));
    expect({ criadas: seen.criadas, negadas: seen.negadas, pendentes: seen.pendentes }).toEqual({ criadas: 990, negadas: 10, pendentes: 0 });
    for (const i of invalid) expect(seen.body.cobsv[i]).toMatchObject({ status: 'NEGADA', problema: { violacoes: [{ propriedade: 'cobv.valor.original' }] } });

    // Exactly once, in the event store itself: one charge per valid request, one decision per request.
    const c = new Client({ connectionString: db.url });
    await c.connect();
    try {
      const charges = await c.query(`SELECT count(*)::int AS n, count(DISTINCT stream_id)::int AS streams FROM es_events WHERE event_type = 'CobVCriada' AND data->>'loteCobVId' = $1`, [ID]);
      expect(charges.rows[0]).toEqual({ n: 990, streams: 990 });
      const decisions = await c.query(`SELECT count(*)::int AS n, count(DISTINCT data->>'txid')::int AS txids FROM es_events WHERE stream_id = $1 AND event_type = 'SolicitacaoLoteDecidida'`, [lotecobvStreamId(TEST_RECEIVER.id, ID)]);
      expect(decisions.rows[0]).toEqual({ n: 1000, txids: 1000 });
    } finally {
      await c.end();
    }
    const listed: any = await (await fetch(`${api.base}/cobv?inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z&loteCobVId=${ID}&paginacao.itensPorPagina=1`, { headers: api.headers() })).json();
    expect(listed.parametros.paginacao.quantidadeTotalDeItens).toBe(990);
  });
});
