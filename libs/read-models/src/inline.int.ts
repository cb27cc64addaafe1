import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { cobvDecider, cobvStreamId, type CobVCommand, type Recebedor } from '@pix/domain';
import { migrate, PostgresEventStore, WrongExpectedRevisionError } from '@pix/event-store';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { cobvProjection } from './cobv/cobv-projection';
import { locProjection } from './loc/loc-projection';
import { enableInlineProjections, INLINE_CHECKPOINT } from './inline';
import { projectionMigration, readCheckpoint } from './projection-runner';
import { replayProjection } from './replay';
import type { Projection } from './projection';

const recebedor: Recebedor = { id: 'r1', nome: 'Loja', cnpj: '11222333000181', logradouro: 'Rua A', cidade: 'Recife', uf: 'PE', cep: '50000000', chaves: ['+5581999990000'] };
const command = (txid: string, original: string, locId: number): CobVCommand => ({
  type: 'CriarOuAlterarCobV',
  txid,
  now: new Date(),
  recebedor,
  novaLocation: { id: locId, location: `h/qr/v2/cobv/${txid}` },
  input: { calendario: { dataDeVencimento: '2099-12-01' }, devedor: { cpf: '12345678909', nome: 'Ana' }, valor: { original }, chave: '+5581999990000' },
});

describe('inline projections (ADR 14)', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  const projections: Projection<any>[] = [cobvProjection, locProjection];

  /** Read, decide, append at the revision read with the prior events; again on a conflict. */
  async function write(txid: string, original: string, locId: number): Promise<number> {
    for (;;) {
      const prior = await store.readStream(cobvStreamId(recebedor.id, txid));
      const state = prior.reduce((s, e) => cobvDecider.evolve(s, { type: e.type, data: e.data } as any), cobvDecider.initialState);
      const events = cobvDecider.decide(command(txid, original, locId), state);
      try {
        await store.appendToStream(cobvStreamId(recebedor.id, txid), events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data as any })), prior.length ? prior[prior.length - 1].revision : 'no_stream', { prior });
        const after = events.reduce(cobvDecider.evolve, state);
        return after.exists ? after.revisao : -1;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
      }
    }
  }
  const rows = async (table: string) => (await pool.query(`SELECT * FROM ${table} ORDER BY id`)).rows;

  beforeAll(async () => {
    db = await createTestDatabase('inline');
    pool = testPool(db.url);
    store = await PostgresEventStore.create({ poolConfig: { connectionString: db.url, max: 10 } });
    await migrate(pool, projections.map((p) => projectionMigration(p)));
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
    await db.drop();
  });

  it('catches up with events appended before, then writes rows in the append itself', async () => {
    for (let i = 0; i < 3; i++) await write(`old${String(i).padStart(26, '0')}`, '1.00', 100 + i);
    expect(await rows('rm_cobv')).toHaveLength(0);
    await enableInlineProjections(store, pool, projections);
    expect(await rows('rm_cobv')).toHaveLength(3);
    expect(await readCheckpoint(pool, 'cobv')).toBe(INLINE_CHECKPOINT);
    // Visible the moment the append returns: no runner, no waiting.
    const revisao = await write(`new${'0'.repeat(26)}`, '2.00', 200);
    const { rows: now } = await pool.query(`SELECT revisao FROM rm_cobv WHERE id = $1`, [`r1/new${'0'.repeat(26)}`]);
    expect(now).toEqual([{ revisao }]);
    expect((await pool.query(`SELECT doc->>'txid' AS txid FROM rm_loc WHERE id = 'r1/200'`)).rows).toEqual([{ txid: `new${'0'.repeat(26)}` }]);
  });

  // About 100 commits, each waited for, plus two replays: 2.3 s alone on a quiet machine, and over
  // jest's 5 s in a CI run on a day single-row commits took 3-30 ms (the disk's flush, not this code).
  it('applies every event exactly once under concurrent writers (same and different streams, a shared row), equal to a replay', async () => {
    const same = `same${'0'.repeat(26)}`;
    const writer = async (name: string) => {
      for (let i = 0; i < 25; i++) {
        await write(same, `${name === 'wa' ? i + 10 : i + 100}.00`, 300); // every write a change
        // Different streams whose charges share one location row (a row of several streams: guarded).
        await write(`${name}${String(i).padStart(28, '0')}`, '3.00', 400 + (i % 3));
      }
    };
    await Promise.all([writer('wa'), writer('wb')]);
    // Exactly once: each charge's row is at the revision of its stream's last event.
    const { rows: mismatched } = await pool.query(
      `SELECT r.id FROM rm_cobv r JOIN (SELECT stream_id, max(stream_revision) AS rev FROM es_events GROUP BY stream_id) s ON s.stream_id = 'cobv-' || r.id WHERE r.revisao <> s.rev`,
    );
    expect(mismatched).toEqual([]);
    expect((await pool.query(`SELECT revisao FROM rm_cobv WHERE id = $1`, [`r1/${same}`])).rows[0].revisao).toBe(49);
    // Rows equal a rebuild from the first event.
    for (const p of projections) {
      const live = await rows(p.table);
      await replayProjection(store, pool, p, { pageSize: 50 });
      expect(await rows(p.table)).toEqual(live);
      expect(await readCheckpoint(pool, p.name)).toBe(INLINE_CHECKPOINT);
    }
  }, 60_000);
});
