import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { migrateApiSchema } from '../infrastructure/schema';
import { batchRequestCounts, DECIDED_RECOUNT_MS } from './batch-request-counts';

describe('pix_batch_requests counts', () => {
  let db: TestDatabase;
  let pool: Pool;
  const statements: string[] = [];
  const counted = { query: (sql: string) => (statements.push(sql), pool.query(sql)) } as unknown as Pick<Pool, 'query'>;
  let added = 0;
  const add = (status: string, n: number) =>
    pool.query(
      `INSERT INTO rm_lotecobv_solicitacao (id, doc, recebedor_id, lote_id, txid, status, posicao, rodada)
       SELECT 'r' || $1 || g, '{}'::jsonb, 'loja', 'loja/1', 't' || $1 || g, $1, g, 0 FROM generate_series($3::int + 1, $3::int + $2) g`,
      [status, n, (added += n) - n],
    );

  beforeAll(async () => {
    db = await createTestDatabase('batch_request_counts');
    pool = new Pool({ connectionString: db.url, max: 2 });
    await migrateApiSchema(pool);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('reads the pending ones at every scrape and the decided totals at most once a minute', async () => {
    let now = 1_000_000;
    const counts = batchRequestCounts(counted, () => now);
    await add('EM_PROCESSAMENTO', 3);
    await add('CRIADA', 2);
    expect(await counts()).toEqual({ EM_PROCESSAMENTO: 3, CRIADA: 2, NEGADA: 0 });
    await pool.query(`UPDATE rm_lotecobv_solicitacao SET status = 'NEGADA' WHERE id = 'rEM_PROCESSAMENTO2'`);
    now += DECIDED_RECOUNT_MS - 1;
    statements.length = 0;
    expect(await counts()).toEqual({ EM_PROCESSAMENTO: 2, CRIADA: 2, NEGADA: 0 });
    // Only the pending count was read: the decided totals never scan the history between recounts.
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain(`status = 'EM_PROCESSAMENTO'`);
    now += 1;
    expect(await counts()).toEqual({ EM_PROCESSAMENTO: 2, CRIADA: 2, NEGADA: 1 });
  });

  it('counts the pending ones through the status index, not the history', async () => {
    await add('CRIADA', 20_000);
    await pool.query('ANALYZE rm_lotecobv_solicitacao');
    const { rows } = await pool.query(`EXPLAIN SELECT count(*) FROM rm_lotecobv_solicitacao WHERE status = 'EM_PROCESSAMENTO'`);
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index Only Scan|Index Scan|Bitmap Index Scan/);
  });

  it('tries again at the next scrape when a recount failed', async () => {
    let fail = true;
    const flaky = { query: (sql: string) => (fail && sql.includes('CRIADA') ? Promise.reject(new Error('connection lost')) : pool.query(sql)) } as unknown as Pick<Pool, 'query'>;
    const counts = batchRequestCounts(flaky, () => 0);
    await expect(counts()).rejects.toThrow('connection lost');
    fail = false;
    expect((await counts()).CRIADA).toBeGreaterThan(0);
  });
});
