import { Pool } from 'pg';
import { LOTECOBV_SNAPSHOT, lotecobvDecider, type DecisaoSolicitacaoLote } from '@pix/domain';
import { handleCommand, migrate, PostgresEventStore, PostgresSnapshotStore, SNAPSHOTS_MIGRATION, type ReadStreamOptions } from '@pix/event-store';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { deterministicId } from '../../shared/deterministic-id';
import { lotecobvStream } from '../../shared/streams';
import { recordDecisions, type Decisao } from './decide-solicitacao';

/** Recording a batch's decisions again (after a crash) appends only what is missing, also from a snapshot. */
describe('recordDecisions', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  let reads: ReadStreamOptions[] = [];
  const lote = { recebedorId: 'r1', loteCobVId: '42' };
  const decisao = (txid: string): Decisao => {
    const data: DecisaoSolicitacaoLote = { id: '42', rodada: 0, txid, status: 'CRIADA', em: '2026-11-27T00:00:00.000Z' };
    return { eventId: deterministicId(`test:${txid}`), decisao: data };
  };
  const stream = lotecobvStream(lote.recebedorId, lote.loteCobVId);
  const decisions = async () => (await store.readStream(stream.id)).filter((e) => e.type === 'SolicitacaoLoteDecidida').map((e) => e.id);

  beforeAll(async () => {
    db = await createTestDatabase('record_decisions');
    pool = new Pool({ connectionString: db.url, max: 4 });
    await migrate(pool, [SNAPSHOTS_MIGRATION]);
    store = await PostgresEventStore.create({ pool, listen: false });
    const read = store.readStream.bind(store);
    store.readStream = (id, options) => (reads.push(options ?? {}), read(id, options));
    const solicitacoes = ['a', 'b', 'c'].map((txid) => ({ txid, corpo: {} }));
    await handleCommand(store, stream, lotecobvDecider, () => ({ type: 'CriarOuAlterarLote' as const, id: '42', descricao: 'x', solicitacoes, now: new Date(), txidsIndisponiveis: [] }));
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
    await db.drop();
  });

  it('appends each decision once, however often it is recorded, reading from the snapshot once there is one', async () => {
    const deps = { store, batchSnapshots: { store: new PostgresSnapshotStore(pool), ...LOTECOBV_SNAPSHOT, every: 2 } };
    const first = await recordDecisions(deps, lote, [decisao('a'), decisao('b')]);
    expect(first).toBeDefined();
    expect(await decisions()).toEqual([decisao('a').eventId, decisao('b').eventId]);
    reads = [];
    const second = await recordDecisions(deps, lote, [decisao('a'), decisao('b'), decisao('c')]);
    expect(reads).toEqual([{ fromRevision: 2n }]); // the snapshot taken after the first
    expect(await decisions()).toEqual([decisao('a'), decisao('b'), decisao('c')].map((d) => d.eventId));
    // All recorded already: nothing appended, and the position to wait for is the stream's last.
    const third = await recordDecisions(deps, lote, [decisao('c'), decisao('a')]);
    expect((await decisions()).length).toBe(3);
    expect(third).toBe(second);
    expect(store.comparePositions(second!, first!)).toBeGreaterThan(0);
  });
});
