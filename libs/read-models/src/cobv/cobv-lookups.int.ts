import type { Pool } from 'pg';
import { migrate } from '@pix/event-store';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { solicitacaoLoteProjection } from '../lotecobv/lotecobv-projection';
import { projectionMigration } from '../projection-runner';
import { cobvProjection } from './cobv-projection';
import { CobVLookups } from './cobv-lookups';
import { findCobV } from './cobv-queries';

const TXIDS = Array.from({ length: 60 }, (_, i) => `lookup${String(i).padStart(24, '0')}`);

describe('CobVLookups: concurrent GETs share statements', () => {
  let db: TestDatabase;
  let pool: Pool;

  /** The real pool, counting the statements sent through it. */
  const counted = () => {
    const db = { statements: 0, query: ((...args: Parameters<Pool['query']>) => (db.statements++, (pool.query as any)(...args))) as Pool['query'] };
    return db;
  };

  beforeAll(async () => {
    db = await createTestDatabase('cobv_lookups');
    pool = testPool(db.url);
    // The batch requests' table too: a lookup hides a charge its batch is still creating (ADR 6).
    await migrate(pool, [projectionMigration(cobvProjection), projectionMigration(solicitacaoLoteProjection)]);
    // Receivers A and B hold the same txids with their own amounts; A alone holds the last ten.
    for (const [recebedor, txids] of [['loja-a', TXIDS], ['loja-b', TXIDS.slice(0, 50)]] as const) {
      for (const txid of txids) {
        const doc = { txid, recebedor: { id: recebedor }, valor: `${recebedor}:${txid}` };
        await pool.query(`INSERT INTO rm_cobv (id, doc, recebedor_id, status, criacao, revisao) VALUES ($1, $2, $3, 'ATIVA', now(), 0)`, [`${recebedor}/${txid}`, doc, recebedor]);
      }
    }
  });

  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('answers each caller its own receiver’s charge, or nothing, exactly as findCobV', async () => {
    const lookups = new CobVLookups(pool, { maxInFlight: 2, maxBatch: 16 });
    const asks = [...TXIDS, 'ausente000000000000000000000'].flatMap((txid) => [['loja-a', txid], ['loja-b', txid], ['loja-c', txid]] as const);
    // Twice over, so one statement holds the same key for several callers.
    const all = [...asks, ...asks];
    const got = await Promise.all(all.map(([r, t]) => lookups.find(r, t)));
    const expected = await Promise.all(all.map(([r, t]) => findCobV(pool, r, t)));
    expect(got).toEqual(expected);
    expect(got.filter((row) => row !== undefined)).toHaveLength(2 * (60 + 50));
    for (const [i, [r, t]] of all.entries()) if (got[i]) expect((got[i] as any).valor).toBe(`${r}:${t}`);
  });

  it('runs one statement per batch of concurrent lookups, not one per lookup', async () => {
    const db = counted();
    const lookups = new CobVLookups(db, { maxInFlight: 2, maxBatch: 50 });
    const rows = await Promise.all(TXIDS.map((t) => lookups.find('loja-a', t)));
    expect(rows.every((row) => row !== undefined)).toBe(true);
    // 60 keys in batches of at most 50: two statements.
    expect(db.statements).toBe(2);
    // Lookups arriving while both statements are out wait for one to end, then go together.
    const first = Promise.all(TXIDS.slice(0, 2).map((t) => lookups.find('loja-a', t)));
    await new Promise((resolve) => setImmediate(resolve));
    const second = Promise.all(TXIDS.slice(2, 40).map((t) => lookups.find('loja-a', t)));
    await Promise.all([first, second]);
    expect(db.statements).toBe(2 + 2);
  });

  it('fails every lookup of a failed statement, and goes on with the next', async () => {
    const broken = testPool(db.url);
    const lookups = new CobVLookups(broken);
    await broken.end();
    await expect(Promise.all([lookups.find('loja-a', TXIDS[0]), lookups.find('loja-b', TXIDS[1])])).rejects.toThrow();
    const healthy = new CobVLookups(pool);
    await expect(healthy.find('loja-a', TXIDS[0])).resolves.toMatchObject({ txid: TXIDS[0] });
  });

  it('answers a lone lookup in its own statement at once', async () => {
    const db = counted();
    const lookups = new CobVLookups(db);
    await expect(lookups.find('loja-b', TXIDS[3])).resolves.toMatchObject({ valor: `loja-b:${TXIDS[3]}` });
    expect(db.statements).toBe(1);
  });
});
