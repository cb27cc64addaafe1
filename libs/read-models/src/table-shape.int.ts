import type { Pool } from 'pg';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { cobvProjection } from './cobv/cobv-projection';
import { ensureProjectionTable } from './table-shape';
import type { Projection } from './projection';

const indexes = async (pool: Pool) =>
  (await pool.query<{ name: string; def: string }>(`SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE tablename = 'rm_cobv' ORDER BY 1`)).rows;

describe('read model tables: indexes of columns most rows leave empty', () => {
  let db: TestDatabase;
  let pool: Pool;
  beforeAll(async () => {
    db = await createTestDatabase('table_shape');
    pool = testPool(db.url);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('indexes only the rows that have a value, and an older full index is replaced in place, rows kept', async () => {
    // rm_cobv as the versions before partial indexes made it: the same columns, full indexes.
    const columns = cobvProjection.columns.map((c) => `, ${c.name} ${c.sqlType}`).join('');
    await pool.query(`CREATE TABLE rm_cobv (id text PRIMARY KEY, doc jsonb NOT NULL${columns})`);
    for (const c of ['devedor_cpf', 'devedor_cnpj', 'lote_cobv_id']) await pool.query(`CREATE INDEX rm_cobv_${c}_idx ON rm_cobv (${c})`);
    await pool.query(
      `INSERT INTO rm_cobv (id, doc, recebedor_id, status, criacao, devedor_cpf, revisao)
       SELECT 'r/' || g, '{}', 'r', 'ATIVA', now(), CASE WHEN g % 100 = 0 THEN lpad(g::text, 11, '0') END, 0 FROM generate_series(1, 5000) g`,
    );

    expect(await ensureProjectionTable(pool, cobvProjection as Projection<unknown>)).toBe(false); // same columns: not rebuilt
    const after = await indexes(pool);
    for (const c of ['devedor_cpf', 'devedor_cnpj', 'lote_cobv_id']) {
      expect(after.find((i) => i.name === `rm_cobv_${c}_idx`)).toBeUndefined();
      expect(after.find((i) => i.name === `rm_cobv_${c}_set_idx`)?.def).toMatch(new RegExp(`WHERE \\(${c} IS NOT NULL\\)$`));
    }
    expect((await pool.query('SELECT count(*)::int AS n FROM rm_cobv')).rows[0].n).toBe(5000);
    // Holds only the 50 rows with a CPF, and an equality filter (the listing's) is served by it.
    const size = await pool.query<{ n: number }>(`SELECT reltuples::int AS n FROM pg_class WHERE relname = 'rm_cobv_devedor_cpf_set_idx'`);
    expect(size.rows[0].n).toBe(50);
    const client = await pool.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT doc FROM rm_cobv WHERE recebedor_id = 'r' AND devedor_cpf = $1`, ['00000000100']);
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('rm_cobv_devedor_cpf_set_idx');
    } finally {
      client.release();
    }
    // Again: nothing left to do.
    await ensureProjectionTable(pool, cobvProjection as Projection<unknown>);
    expect(await indexes(pool)).toEqual(after);
  });
});
