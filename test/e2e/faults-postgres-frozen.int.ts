import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { startOwnPostgres, type OwnPostgres } from '../support/own-postgres';

// Contract audit (2026-11-28): with PostgreSQL frozen (SIGSTOP: its kernel still accepts and
// acknowledges, as a black-holed network does), reads on pooled connections got no answer at all
// (45 s and counting): a statement had no deadline, and TCP noticed nothing. Now every statement
// has one (DATABASE_QUERY_TIMEOUT_MS) and the request is answered 503, its connection dropped.
jest.setTimeout(120_000);

const DEADLINE_MS = 1500;

describe('faults: PostgreSQL frozen (SIGSTOP) under the API', () => {
  let pg: OwnPostgres;
  let api: RunningApi;
  let txid: string;

  beforeAll(async () => {
    pg = await startOwnPostgres();
    api = await startApi({ db: { url: pg.url, name: 'own', drop: async () => undefined }, env: { DATABASE_QUERY_TIMEOUT_MS: String(DEADLINE_MS), RATE_LIMIT_PER_SECOND: '0' } });
    txid = newTxid('frz');
    expect((await api.request('PUT', `/cobv/${txid}`, validCobV())).status).toBe(201);
    // Every pooled connection in use at least once, so the frozen server holds them all.
    await Promise.all(Array.from({ length: 40 }, () => api.request('GET', `/cobv/${txid}`)));
  });
  afterAll(async () => {
    pg?.thaw();
    await api?.stop();
    await pg?.stop();
  });

  it('answers reads and writes 503 within the statement deadline, and serves again once the server answers', async () => {
    pg.freeze();
    try {
      const started = Date.now();
      const answers = await Promise.all([
        api.request('GET', `/cobv/${txid}`),
        api.request('GET', `/cobv?inicio=2020-01-01T00:00:00Z&fim=2035-01-01T00:00:00Z`),
        api.request('PUT', `/cobv/${newTxid('frz')}`, validCobV()),
      ]);
      const took = Date.now() - started;
      expect(answers.map((a) => [a.status, a.body?.type, a.headers.get('retry-after') !== null])).toEqual(
        Array.from({ length: 3 }, () => [503, 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel', true]),
      );
      // The deadline, plus a new connection's own bound (5 s) for a request that found none idle.
      expect(took).toBeLessThan(DEADLINE_MS + 5000 + 3000);
    } finally {
      pg.thaw();
    }
    for (const deadline = Date.now() + 20_000; ; await new Promise((r) => setTimeout(r, 200))) {
      const read = await api.request('GET', `/cobv/${txid}`);
      if (read.status === 200) break;
      if (Date.now() > deadline) throw new Error(`still ${read.status} 20 s after the thaw`);
    }
    expect((await api.request('PUT', `/cobv/${newTxid('frz')}`, validCobV())).status).toBe(201);
  });
});
