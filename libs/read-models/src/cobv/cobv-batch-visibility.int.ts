import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { cobvDecider, cobvStreamId, lotecobvStreamId, type Recebedor } from '@pix/domain';
import type { RecordedEvent } from '@pix/event-store';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import { applyEvents } from '../apply-batch';
import { solicitacaoLoteProjection } from '../lotecobv/lotecobv-projection';
import { cobvExisteParaLeitores, criacaoEmLotePendente } from '../lotecobv/lotecobv-queries';
import { locProjection } from '../loc/loc-projection';
import { findLoc, findLocAsStored, listLoc } from '../loc/loc-queries';
import type { Projection } from '../projection';
import { ensureProjectionTable } from '../table-shape';
import { CobVLookups } from './cobv-lookups';
import { cobvProjection } from './cobv-projection';
import { findCobV, findCobVByLocationToken, listCobV } from './cobv-queries';

const receiver = (id: string): Recebedor => ({ id, nome: `Loja ${id}`, cnpj: '11222333000181', logradouro: 'Rua A', cidade: 'Recife', uf: 'PE', cep: '50000000', chaves: ['+5581999990001'] });
const A = receiver('loja-a');
const B = receiver('loja-b');
const LOTE = '5';
const now = new Date();
const em = now.toISOString();
const tx = (name: string) => name.padEnd(30, '0');
// One batch of A: a creation still being processed (its charge already appended), one created,
// one created and now in a revision round, one denied (no charge). Beside it, a charge of PUT
// /cobv (no batch id) whose txid a request of the batch also names, and B's pending creation
// of a txid that is a created charge of A's.
const CRIANDO = tx('criando');
const CRIADA = tx('criada');
const REVISANDO = tx('revisando');
const NEGADA = tx('negada');
const AVULSA = tx('avulsa');
const period = { inicio: new Date(now.getTime() - 86_400_000), fim: new Date(now.getTime() + 86_400_000), paginaAtual: 0, itensPorPagina: 100 };

let position = 0;
/** Each charge's implicit payload location (rm_loc), by txid. */
const locIds = new Map<string, number>();
const recorded = (streamId: string, type: string, data: object): RecordedEvent =>
  ({ id: randomUUID(), streamId, revision: 0n, type, data, metadata: {}, recordedAt: now, position: String(++position) }) as unknown as RecordedEvent;
const charge = (r: Recebedor, txid: string, loteCobVId?: number) => {
  const input = { calendario: { dataDeVencimento: '2099-12-01' }, devedor: { cpf: '12345678909', nome: 'Ana' }, valor: { original: '10.00' }, chave: r.chaves[0] };
  locIds.set(txid, ++position);
  const novaLocation = { id: position, location: `h/qr/v2/cobv/tok${txid}` };
  const [e] = cobvDecider.decide({ type: 'CriarOuAlterarCobV', txid, input, now, recebedor: r, novaLocation, loteCobVId }, cobvDecider.initialState);
  return recorded(cobvStreamId(r.id, txid), e.type, e.data);
};
const lote = (r: Recebedor, type: string, data: object) => recorded(lotecobvStreamId(r.id, LOTE), type, { id: LOTE, ...data });
const decided = (r: Recebedor, txid: string, rodada: number, status: 'CRIADA' | 'NEGADA') =>
  lote(r, 'SolicitacaoLoteDecidida', { rodada, txid, status, em, ...(status === 'CRIADA' ? { criacao: em } : {}) });

describe('rm_cobv readers: a charge its batch is still creating does not exist (ADR 6)', () => {
  let db: TestDatabase;
  let pool: Pool;

  const apply = async (projection: Projection<any, any>, events: RecordedEvent[]) => {
    const client = await pool.connect();
    try {
      await applyEvents(client, projection, projection.table, events);
    } finally {
      client.release();
    }
  };
  const visible = async (r: Recebedor, txid: string) => {
    const one = await findCobV(pool, r.id, txid);
    expect(await new CobVLookups(pool).find(r.id, txid)).toEqual(one);
    expect(await findCobVByLocationToken(pool, `tok${txid}`)).toEqual(one);
    // Its location (GET /loc/{id}) names the charge only when the charge is there; writes see it always.
    const locId = locIds.get(txid);
    if (locId !== undefined) {
      expect((await findLoc(pool, r.id, locId))?.txid).toBe(one?.txid);
      expect((await findLocAsStored(pool, r.id, locId))?.txid).toBe(txid);
    }
    return one !== undefined;
  };

  beforeAll(async () => {
    db = await createTestDatabase('cobv_batch_visibility');
    pool = testPool(db.url);
    for (const p of [cobvProjection, locProjection, solicitacaoLoteProjection]) await ensureProjectionTable(pool, p as Projection<unknown>);
    // The charges first, as the processor appends them; the requests' rows after (either order gives the same rows).
    const charges = [charge(A, CRIANDO, 5), charge(A, CRIADA, 5), charge(A, REVISANDO, 5), charge(A, AVULSA)];
    await apply(cobvProjection, charges);
    await apply(locProjection, charges);
    const corpo = {};
    await apply(solicitacaoLoteProjection, [
      lote(A, 'LoteCobVCriado', { descricao: 'd', criacao: em, solicitacoes: [CRIANDO, CRIADA, REVISANDO, NEGADA, AVULSA].map((txid) => ({ txid, corpo })) }),
      decided(A, CRIADA, 0, 'CRIADA'),
      decided(A, REVISANDO, 0, 'CRIADA'),
      decided(A, NEGADA, 0, 'NEGADA'),
      lote(A, 'LoteCobVAlterado', { rodada: 1, via: 'REVISAO_PATCH', em, solicitacoes: [{ txid: REVISANDO, corpo }] }),
      lote(B, 'LoteCobVCriado', { descricao: 'd', criacao: em, solicitacoes: [{ txid: CRIADA, corpo }] }),
    ]);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('hides a pending creation from GET (one or shared lookups), the payload location and the listing with its count; nothing else', async () => {
    expect(await visible(A, CRIANDO)).toBe(false);
    expect(await criacaoEmLotePendente(pool, A.id, 5, CRIANDO)).toBe(true);
    // Created, or created and now revised (EM_PROCESSAMENTO again, but the charge existed): there.
    expect(await visible(A, CRIADA)).toBe(true);
    expect(await visible(A, REVISANDO)).toBe(true);
    expect(await criacaoEmLotePendente(pool, A.id, 5, REVISANDO)).toBe(false);
    // Denied: no charge at all. A charge of PUT /cobv is not the batch's: its request changes nothing.
    expect(await visible(A, NEGADA)).toBe(false);
    expect(await visible(A, AVULSA)).toBe(true);
    const all = await listCobV(pool, A.id, period);
    expect(all.rows.map((r) => r.txid).sort()).toEqual([AVULSA, CRIADA, REVISANDO].sort());
    expect(all.total).toBe(3);
    const byLote = await listCobV(pool, A.id, { ...period, loteCobVId: 5 });
    expect([byLote.rows.map((r) => r.txid).sort(), byLote.total]).toEqual([[CRIADA, REVISANDO].sort(), 2]);
    // GET /loc: every location is there; the pending charge's names no txid, and txIdPresente counts it so.
    const locs = await listLoc(pool, A.id, period);
    expect([locs.total, locs.rows.find((l) => l.id === locIds.get(CRIANDO))?.txid]).toEqual([4, undefined]);
    const comTxid = await listLoc(pool, A.id, { ...period, txIdPresente: true });
    expect([comTxid.rows.map((l) => l.txid).sort(), comTxid.total]).toEqual([[AVULSA, CRIADA, REVISANDO].sort(), 3]);
    const semTxid = await listLoc(pool, A.id, { ...period, txIdPresente: false });
    expect([semTxid.rows, semTxid.total]).toEqual([[expect.not.objectContaining({ txid: expect.anything() })], 1]);
    expect(semTxid.rows[0].id).toBe(locIds.get(CRIANDO));
  });

  it('shows the charge once its creation is decided, and another receiver’s pending request never hides it', async () => {
    await apply(solicitacaoLoteProjection, [decided(A, CRIANDO, 0, 'CRIADA')]);
    expect(await visible(A, CRIANDO)).toBe(true);
    expect(await criacaoEmLotePendente(pool, A.id, 5, CRIANDO)).toBe(false);
    expect((await listCobV(pool, A.id, { ...period, loteCobVId: 5 })).total).toBe(3);
    expect((await listLoc(pool, A.id, { ...period, txIdPresente: true })).total).toBe(4);
    // B's batch 5 names CRIADA (pending): A's charge of the same txid and batch id stays.
    expect(await visible(A, CRIADA)).toBe(true);
  });

  it('reads through indexes on large tables: a primary-key probe per charge with a batch id, or the pending requests by status', async () => {
    // 20,000 charges of A, one in ten with a batch id, each with a request: half pending creations.
    await pool.query(
      `INSERT INTO rm_cobv (id, doc, recebedor_id, status, criacao, lote_cobv_id, revisao)
       SELECT 'loja-a/big' || g, jsonb_build_object('txid', 'big' || g), 'loja-a', 'ATIVA', now(), CASE WHEN g % 10 = 0 THEN 900 + g % 7 END, 0 FROM generate_series(1, 20000) g`,
    );
    await pool.query(
      `INSERT INTO rm_lotecobv_solicitacao (id, doc, recebedor_id, lote_id, txid, status, posicao, rodada)
       SELECT 'loja-a/' || (900 + g % 7) || ':big' || g, CASE WHEN g % 20 = 0 THEN '{}'::jsonb ELSE '{"criacao": "x"}'::jsonb END, 'loja-a', 'loja-a/' || (900 + g % 7), 'big' || g,
              CASE WHEN g % 20 = 0 THEN 'EM_PROCESSAMENTO' ELSE 'CRIADA' END, g, 0 FROM generate_series(10, 20000, 10) g`,
    );
    await pool.query('ANALYZE rm_cobv; ANALYZE rm_lotecobv_solicitacao');
    expect((await listCobV(pool, A.id, { ...period, loteCobVId: 900 })).total).toBe(143); // of 286, the even tenths pending
    const plan = async (sql: string, params: unknown[]) =>
      (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
    const lookup = await plan(`SELECT doc FROM rm_cobv c WHERE id = ANY($1::text[]) AND ${cobvExisteParaLeitores('c')}`, [['loja-a/big1', 'loja-a/big10']]);
    expect(lookup).toMatch(/Anti Join/);
    expect(lookup).toContain('rm_cobv_pkey');
    expect(lookup).toContain('rm_lotecobv_solicitacao_pkey');
    expect(lookup).not.toMatch(/Seq Scan/);
    const byLote = await plan(
      `SELECT count(*) FROM rm_cobv c WHERE recebedor_id = $1 AND lote_cobv_id = $2 AND ${cobvExisteParaLeitores('c')}`,
      ['loja-a', 900],
    );
    // The planner probes the primary key per charge, or hashes the receiver's pending requests
    // (status index) when those are fewer: either way by index, never a scan of the table.
    const indexed = /(Index Scan using|Bitmap Index Scan on) rm_lotecobv_solicitacao_(pkey|status_idx)/;
    expect(byLote).toContain('rm_cobv_lote_cobv_id_set_idx');
    expect(byLote).toMatch(indexed);
    expect(byLote).not.toMatch(/Seq Scan/);
    // A charge without a batch id probes with a NULL key: the index is not even entered.
    const single = (await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT doc FROM rm_cobv c WHERE id = ANY($1::text[]) AND ${cobvExisteParaLeitores('c')}`, [['loja-a/big1']])).rows;
    const probe = single.map((r) => r['QUERY PLAN']).join('\n').split('rm_lotecobv_solicitacao_pkey')[1].split('Planning')[0];
    expect(probe).not.toContain('Buffers');
  });
});
