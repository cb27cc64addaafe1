import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import {
  cobvDecider,
  cobvStreamId,
  lotecobvDecider,
  lotecobvStreamId,
  pixDecider,
  pixStreamId,
  webhookDecider,
  webhookStreamId,
  type PixRecebido,
  type Recebedor,
} from '@pix/domain';
import { PostgresEventStore } from '@pix/event-store';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { existingCobVTxids, findCobV, listCobV } from './cobv/cobv-queries';
import { cobvProjection } from './cobv/cobv-projection';
import { findLoteCobV, findLotesCobV, findSolicitacoesByTxid, listLotesCobV, pendingSolicitacoes } from './lotecobv/lotecobv-queries';
import { lotecobvProjection, solicitacaoLoteProjection } from './lotecobv/lotecobv-projection';
import { findPix, listPix } from './pix/pix-queries';
import { pixProjection } from './pix/pix-projection';
import { ProjectionGroup } from './projection-group';
import { ProjectionRunner, readCheckpoint } from './projection-runner';
import { replayProjection } from './replay';
import { listWebhooks, webhookProjection } from './webhook/webhook-projection';

const receiver = (id: string, chave: string): Recebedor => ({ id, nome: `Loja ${id}`, cnpj: '11222333000181', logradouro: 'Rua A', cidade: 'Recife', uf: 'PE', cep: '50000000', chaves: [chave] });
const A = receiver('loja-a', '+5581999990001');
const B = receiver('loja-b', '+5581999990002');
const TXID = 'mesmotxid00000000000000000001';
const LOTE = '7';
const now = new Date();
const period = { inicio: new Date(now.getTime() - 86_400_000), fim: new Date(now.getTime() + 86_400_000), paginaAtual: 0, itensPorPagina: 100 };
const pix = (e2e: string, chave: string, txid?: string): PixRecebido => ({ endToEndId: e2e, txid, chave, valor: '1.00', horario: now.toISOString() });
const e2e = (n: number) => `E12345678202611221200${String(n).padStart(11, '0')}`;

// The runner reads nothing past a transaction still open anywhere in the cluster (ADR 1): with
// other suites' transactions beside it, catching up can take seconds. The waitFor deadlines
// below bound that; jest's own 5 s must not cut them short.
jest.setTimeout(30_000);

describe('read models: two receivers with the same txid and batch id', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  let group: ProjectionGroup;
  let runners: ProjectionRunner<unknown>[];

  const append = (streamId: string, events: { type: string; data: object }[]) =>
    store.appendToStream(streamId, events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data as Record<string, unknown> })), 'any');

  beforeAll(async () => {
    db = await createTestDatabase('tenancy_rm');
    pool = testPool(db.url);
    store = await PostgresEventStore.create({ poolConfig: { connectionString: db.url } });
    runners = [cobvProjection, lotecobvProjection, solicitacaoLoteProjection, pixProjection, webhookProjection].map((p) => new ProjectionRunner(store, pool, p as never));
    group = new ProjectionGroup(store, runners);
    await group.start();

    for (const [r, original] of [[A, '10.00'], [B, '20.00']] as const) {
      const input = { calendario: { dataDeVencimento: '2099-12-01' }, devedor: { cpf: '12345678909', nome: 'Ana' }, valor: { original }, chave: r.chaves[0] };
      await append(cobvStreamId(r.id, TXID), cobvDecider.decide({ type: 'CriarOuAlterarCobV', txid: TXID, input, now, recebedor: r, novaLocation: { id: 1, location: 'https://h/1' } }, cobvDecider.initialState));
      const solicitacoes = [{ txid: TXID, corpo: {} }, { txid: `${r.id.replace('-', '')}000000000000000000000`, corpo: {} }];
      await append(lotecobvStreamId(r.id, LOTE), lotecobvDecider.decide({ type: 'CriarOuAlterarLote', id: LOTE, descricao: `Lote de ${r.id}`, solicitacoes, now, txidsIndisponiveis: [] }, lotecobvDecider.initialState));
      await append(webhookStreamId(r.chaves[0]), webhookDecider.decide({ type: 'ConfigurarWebhook', chave: r.chaves[0], webhookUrl: `https://${r.id}.example/hook`, now, recebedorId: r.id, chavesDoRecebedor: r.chaves, politica: { permitirHttp: false } }, webhookDecider.initialState));
    }
    // B's first request is decided; A's stays pending.
    await append(lotecobvStreamId(B.id, LOTE), [{ type: 'SolicitacaoLoteDecidida', data: { id: LOTE, rodada: 0, txid: TXID, status: 'NEGADA', em: now.toISOString() } }]);
    await append(pixStreamId(e2e(1)), pixDecider.decide({ type: 'RegistrarPix', pix: pix(e2e(1), A.chaves[0], TXID), now, recebedorId: A.id }, pixDecider.initialState));
    await append(pixStreamId(e2e(2)), pixDecider.decide({ type: 'RegistrarPix', pix: pix(e2e(2), B.chaves[0], TXID), now, recebedorId: B.id }, pixDecider.initialState));
    // A Pix to a key nobody here owns, and a registration from before receivers had ids.
    await append(pixStreamId(e2e(3)), pixDecider.decide({ type: 'RegistrarPix', pix: pix(e2e(3), '+5581999990009'), now, recebedorId: null }, pixDecider.initialState));
    const last = await append('webhook-+5581999990009', [{ type: 'WebhookConfigurado', data: { chave: '+5581999990009', webhookUrl: 'https://old.example', criacao: now.toISOString() } }]);
    for (const r of runners) await expect(r.waitFor(last.position, 10_000)).resolves.toBe(true);
  });

  afterAll(async () => {
    await group.stop();
    await store.close();
    await pool.end();
    await db.drop();
  });

  it('keeps one charge per receiver under the same txid, each found and listed only by its own receiver', async () => {
    expect(await findCobV(pool, A.id, TXID)).toMatchObject({ txid: TXID, recebedor: { id: A.id }, cobranca: { valor: { original: 1000 } } });
    expect(await findCobV(pool, B.id, TXID)).toMatchObject({ txid: TXID, recebedor: { id: B.id }, cobranca: { valor: { original: 2000 } } });
    expect(await findCobV(pool, 'loja-c', TXID)).toBeUndefined();
    for (const r of [A, B]) {
      const { rows, total } = await listCobV(pool, r.id, period);
      expect({ total, owners: rows.map((c) => c.recebedor.id) }).toEqual({ total: 1, owners: [r.id] });
    }
    expect(await listCobV(pool, 'loja-c', period)).toEqual({ rows: [], total: 0 });
    expect(await existingCobVTxids(pool, A.id, [TXID, 'outro'])).toEqual([TXID]);
    expect(await existingCobVTxids(pool, 'loja-c', [TXID])).toEqual([]);
  });

  it('keeps one batch per receiver under the same id, with its own requests and reservations', async () => {
    const a = await findLoteCobV(pool, A.id, LOTE);
    const b = await findLoteCobV(pool, B.id, LOTE);
    expect(a).toMatchObject({ lote: { id: LOTE, recebedorId: A.id, descricao: 'Lote de loja-a' } });
    expect(a!.itens.map((i) => [i.recebedorId, i.txid, i.status])).toEqual([[A.id, TXID, 'EM_PROCESSAMENTO'], [A.id, 'lojaa000000000000000000000', 'EM_PROCESSAMENTO']]);
    expect(b!.itens.map((i) => [i.recebedorId, i.txid, i.status])).toEqual([[B.id, TXID, 'NEGADA'], [B.id, 'lojab000000000000000000000', 'EM_PROCESSAMENTO']]);
    expect(await findLoteCobV(pool, 'loja-c', LOTE)).toBeUndefined();
    for (const r of [A, B]) {
      const { lotes, total } = await listLotesCobV(pool, r.id, period);
      expect({ total, lotes }).toEqual({ total: 1, lotes: [{ id: LOTE, quantidade: 2, descricaoBytes: `Lote de ${r.id}`.length }] });
      expect((await findLotesCobV(pool, r.id, [LOTE, 'nenhum'])).map((l) => l.lote.recebedorId)).toEqual([r.id]);
    }
    expect((await findSolicitacoesByTxid(pool, A.id, [TXID])).map((s) => [s.recebedorId, s.status])).toEqual([[A.id, 'EM_PROCESSAMENTO']]);
    expect((await findSolicitacoesByTxid(pool, B.id, [TXID])).map((s) => [s.recebedorId, s.status])).toEqual([[B.id, 'NEGADA']]);
    // The processor's work list spans receivers, each row naming its own.
    const pending = await pendingSolicitacoes(pool, 100, 1000);
    expect(pending.map((p) => `${p.recebedorId}/${p.loteCobVId}:${p.txid}`).sort()).toEqual(
      [`${A.id}/${LOTE}:${TXID}`, `${A.id}/${LOTE}:lojaa000000000000000000000`, `${B.id}/${LOTE}:lojab000000000000000000000`].sort(),
    );
  });

  it("shows each receiver only its own Pix and webhooks, and nobody a Pix or registration that has no receiver", async () => {
    expect(await findPix(pool, A.id, e2e(1))).toMatchObject({ endToEndId: e2e(1) });
    expect(await findPix(pool, B.id, e2e(1))).toBeUndefined();
    expect(await findPix(pool, A.id, e2e(3))).toBeUndefined();
    expect((await listPix(pool, A.id, period)).rows.map((p) => p.endToEndId)).toEqual([e2e(1)]);
    expect((await listPix(pool, B.id, { ...period, txid: TXID })).rows.map((p) => p.endToEndId)).toEqual([e2e(2)]);
    const { rows } = await pool.query(`SELECT id, recebedor_id FROM rm_pix WHERE id = $1`, [e2e(3)]);
    expect(rows).toEqual([{ id: e2e(3), recebedor_id: null }]);
    for (const r of [A, B]) expect((await listWebhooks(pool, r.id, period)).rows.map((w) => [w.chave, w.recebedorId])).toEqual([[r.chaves[0], r.id]]);
    expect((await pool.query(`SELECT count(*)::int AS n FROM rm_webhook`)).rows[0].n).toBe(3);
  });

  it('replays a tenant read model into an identical table, composite indexes included', async () => {
    const snapshot = async () => (await pool.query(`SELECT id, doc, recebedor_id, lote_id, txid, status FROM rm_lotecobv_solicitacao ORDER BY id`)).rows;
    const before = await snapshot();
    await replayProjection(store, pool, solicitacaoLoteProjection);
    expect(await snapshot()).toEqual(before);
    const { rows } = await pool.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'rm_lotecobv_solicitacao' ORDER BY indexname`);
    expect(rows.map((r) => r.indexname)).toEqual([
      'rm_lotecobv_solicitacao_lote_id_idx',
      'rm_lotecobv_solicitacao_pkey',
      'rm_lotecobv_solicitacao_recebedor_txid_idx',
      'rm_lotecobv_solicitacao_status_idx',
    ]);
  });
});

describe('read models: a table left by an earlier version', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await createTestDatabase('tenancy_shape');
    pool = testPool(db.url);
    store = await PostgresEventStore.create({ poolConfig: { connectionString: db.url } });
  });
  afterAll(async () => {
    await store.close();
    await pool.end();
    await db.drop();
  });

  it('is dropped with its checkpoint and rebuilt from the first event', async () => {
    const input = { calendario: { dataDeVencimento: '2099-12-01' }, devedor: { cpf: '12345678909', nome: 'Ana' }, valor: { original: '1.00' }, chave: A.chaves[0] };
    const events = cobvDecider.decide({ type: 'CriarOuAlterarCobV', txid: TXID, input, now, recebedor: A, novaLocation: { id: 1, location: 'https://h/1' } }, cobvDecider.initialState);
    const written = await store.appendToStream(cobvStreamId(A.id, TXID), events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data as never })), 'no_stream');
    // The shape before tenants: no recebedor_id, keyed by txid, checkpoint past the event.
    await pool.query(`CREATE TABLE rm_cobv (id text PRIMARY KEY, doc jsonb NOT NULL, status text NOT NULL, criacao timestamptz NOT NULL, devedor_cpf text, devedor_cnpj text, lote_cobv_id bigint, revisao integer NOT NULL)`);
    await pool.query(`INSERT INTO rm_cobv VALUES ('velho', '{}', 'ATIVA', now(), null, null, null, 0)`);
    await pool.query(`CREATE TABLE projection_checkpoints (name text PRIMARY KEY, position text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`);
    await pool.query(`INSERT INTO projection_checkpoints (name, position) VALUES ('cobv', $1)`, [written.position]);
    const runner = new ProjectionRunner(store, pool, cobvProjection as never);
    await runner.start();
    try {
      expect(await runner.waitFor(written.position, 10_000)).toBe(true);
      expect((await pool.query(`SELECT id, recebedor_id FROM rm_cobv`)).rows).toEqual([{ id: `${A.id}/${TXID}`, recebedor_id: A.id }]);
      expect(await readCheckpoint(pool, 'cobv')).toBe(written.position);
    } finally {
      await runner.stop();
    }
  });
});
