import { Client } from 'pg';
import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';

/** The batch processor's idle poll runs on its own clock; it is not part of a request. */
const PROCESSOR_POLL = /row_number\(\) OVER \(PARTITION BY lote_id/;
/** Nor is local mode's webhook delivery claim (its transaction: lock, claim, commit); a PUT opens no transaction. */
const DELIVERY_CLAIM = /webhook_|pg_advisory_xact_lock\(727102\)|^(BEGIN|COMMIT|ROLLBACK)\b/;

describe('PUT /cobv round trips to PostgreSQL (issue 11)', () => {
  let api: RunningApi;
  let statements: string[] | undefined;
  const original = Client.prototype.query;
  beforeAll(async () => {
    api = await startApi();
    // Every statement any pooled client of this process sends, while a window is open.
    Client.prototype.query = function (this: Client, ...args: any[]) {
      const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
      if (statements && typeof text === 'string' && !PROCESSOR_POLL.test(text)) {
        const statement = text.replace(/\s+/g, ' ').trim();
        if (!DELIVERY_CLAIM.test(statement)) statements.push(statement);
      }
      return (original as any).apply(this, args);
    } as any;
  });
  afterAll(async () => {
    Client.prototype.query = original;
    await api?.stop();
  });

  it('a new charge costs one statement: the append, which checks the stream is new and no batch holds the txid, and writes its read models', async () => {
    // Warm: token, receiver cache, prepared statements, a block of location ids.
    for (let i = 0; i < 3; i++) expect((await api.request('PUT', `/cobv/${newTxid()}`, validCobV())).status).toBe(201);
    for (let i = 0; i < 5; i++) {
      const txid = newTxid();
      statements = [];
      const put = await api.request('PUT', `/cobv/${txid}`, validCobV());
      const sent = statements;
      statements = undefined;
      expect(put.status).toBe(201);
      // What it is (and that the counting sees it at all).
      expect(sent).toHaveLength(1);
      expect(sent[0]).toContain('INSERT INTO es_events');
      expect(sent[0]).toContain('rm_lotecobv_solicitacao');
      // The row is there the moment the 201 is: the append wrote it.
      expect((await api.request('GET', `/cobv/${txid}`)).status).toBe(200);
    }
  });

  it('a PUT does not wake the batch processor: its work-list query runs on its idle poll (about once a second), not once per charge', async () => {
    const polls: number[] = [];
    const count = Client.prototype.query;
    Client.prototype.query = function (this: Client, ...args: any[]) {
      const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
      if (typeof text === 'string' && PROCESSOR_POLL.test(text)) polls.push(Date.now());
      return (count as any).apply(this, args);
    } as any;
    try {
      const started = Date.now();
      for (let i = 0; i < 40; i++) expect((await api.request('PUT', `/cobv/${newTxid()}`, validCobV())).status).toBe(201);
      const seconds = (Date.now() - started) / 1000;
      expect(polls.length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    } finally {
      Client.prototype.query = count;
    }
  });

  it('an existing charge is read first: stream read, batch check, the append (the guess of a new charge is not retried)', async () => {
    const txid = newTxid();
    expect((await api.request('PUT', `/cobv/${txid}`, validCobV())).status).toBe(201);
    statements = [];
    const put = await api.request('PUT', `/cobv/${txid}`, validCobV({ valor: { original: '99.99' } }));
    const sent = statements;
    statements = undefined;
    expect(put.status).toBe(201);
    expect(put.body.valor.original).toBe('99.99');
    // The guess (one statement that fails on the stream's existence), then the ordinary path.
    expect(sent.filter((s) => /FROM es_events WHERE stream_id = \$1 ORDER BY/.test(s))).toHaveLength(1);
    expect(sent.filter((s) => s.includes('INSERT INTO es_events'))).toHaveLength(2);
    expect(sent.length).toBeLessThanOrEqual(5);
  });

  it('new charges that arrive while PostgreSQL is busy share one statement (group commit), each there at its 201', async () => {
    // The read models' writers take this lock shared; held exclusively (as a replay's switch-over
    // does), it keeps the first appends in flight while the others arrive and queue.
    const blocker = new Client({ connectionString: api.db.url });
    await blocker.connect();
    await blocker.query(`BEGIN; SELECT pg_advisory_xact_lock(hashtext('projection:cobv'))`);
    const txids = Array.from({ length: 48 }, () => newTxid());
    statements = [];
    const puts = Promise.all(txids.map((txid) => api.request('PUT', `/cobv/${txid}`, validCobV())));
    await new Promise((r) => setTimeout(r, 1000));
    await blocker.query('COMMIT');
    await blocker.end();
    const statuses = (await puts).map((p) => p.status);
    const appends = statements.filter((s) => s.includes('INSERT INTO es_events'));
    statements = undefined;
    expect(statuses).toEqual(txids.map(() => 201));
    // One statement in flight when the lock was taken (group commit's default); every other PUT
    // queued behind it and then went as one group.
    expect(appends.length).toBeLessThanOrEqual(2);
    expect(appends.filter((s) => s.includes('jsonb_to_recordset($1::jsonb) AS i(k int')).length).toBeGreaterThanOrEqual(1);
    for (const txid of txids) expect((await api.request('GET', `/cobv/${txid}`)).status).toBe(200);
  });
});
