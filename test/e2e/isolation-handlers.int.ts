import { mkdtempSync, rmSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { Recebedor } from '@pix/domain';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { AppModule } from '../../apps/api/src/app.module';
import { GetCobVQuery } from '../../apps/api/src/cobv/get-cobv/get-cobv.query';
import { ListCobVQuery } from '../../apps/api/src/cobv/list-cobv/list-cobv.query';
import { PatchCobVCommand } from '../../apps/api/src/cobv/patch-cobv/patch-cobv.command';
import { PutCobVCommand } from '../../apps/api/src/cobv/put-cobv/put-cobv.command';
import { loadConfig } from '../../apps/api/src/config/config';
import { RECEIVER_DIRECTORY } from '../../apps/api/src/infrastructure/tokens';
import { GetLoteCobVQuery } from '../../apps/api/src/lotecobv/get-lotecobv/get-lotecobv.query';
import { ListLoteCobVQuery } from '../../apps/api/src/lotecobv/list-lotecobv/list-lotecobv.query';
import { PutLoteCobVCommand } from '../../apps/api/src/lotecobv/put-lotecobv/put-lotecobv.command';
import { GetPixQuery } from '../../apps/api/src/pix/get-pix/get-pix.query';
import { ListPixQuery } from '../../apps/api/src/pix/list-pix/list-pix.query';
import { SettleCashIn } from '../../apps/api/src/settlement/settle-cash-in';
import type { ReceiverDirectory } from '../../apps/api/src/shared/ports';
import { DeleteWebhookCommand } from '../../apps/api/src/webhook/delete-webhook/delete-webhook.command';
import { GetWebhookQuery } from '../../apps/api/src/webhook/get-webhook/get-webhook.query';
import { ListWebhookQuery } from '../../apps/api/src/webhook/list-webhook/list-webhook.query';
import { PutWebhookCommand } from '../../apps/api/src/webhook/put-webhook/put-webhook.command';
import { newTxid, validCobV } from '../support/api-harness';
import { cashIn } from '../support/cash-in-fixtures';

// Handler level, on the whole app over real PostgreSQL: two receivers with the same txids and
// batch ids, each seeing only its own charges, batches, webhooks and Pix. (HTTP and tokens are
// the access tests' business; here each command names its receiver, as the controllers do.)
jest.setTimeout(60_000);

const receiver = (id: string, nome: string, chave: string): Recebedor => ({ id, nome, cnpj: '56989000019563', logradouro: 'Rua 15', cidade: 'São Paulo', uf: 'SP', cep: '70800100', chaves: [chave] });
const A = receiver('loja-a', 'Loja A SA', '+5511999990001');
const B = receiver('loja-b', 'Loja B SA', '+5511999990002');
/** Not in the directory: a receiver that was removed after its batch was accepted. */
const GONE = receiver('loja-gone', 'Loja Extinta SA', '+5511999990003');
const WHOLE_TIME = { inicio: '2000-01-01T00:00:00Z', fim: '2100-01-01T00:00:00Z', 'paginacao.itensPorPagina': '1000' };
const directory: ReceiverDirectory = {
  recebedor: async (id) => [A, B].find((r) => r.id === id),
  ownerOfChave: async (chave) => [A, B].find((r) => r.chaves.includes(chave))?.id,
};
const charge = (r: Recebedor, over: Record<string, unknown> = {}) => validCobV({ chave: r.chaves[0], ...over });

describe('handlers: each receiver sees only its own data', () => {
  let db: TestDatabase;
  let dataDir: string;
  let app: NestFastifyApplication;
  let commands: CommandBus;
  let queries: QueryBus;
  const cobv = (r: Recebedor, txid: string, revisao?: string) => queries.execute(new GetCobVQuery(r, txid, revisao)) as Promise<any>;
  const lote = (r: Recebedor, id: string) => queries.execute(new GetLoteCobVQuery(r, id)) as Promise<any>;
  async function processed(r: Recebedor, id: string): Promise<any> {
    for (const deadline = Date.now() + 30_000; ; await new Promise((ok) => setTimeout(ok, 100))) {
      const found = await lote(r, id);
      if (found.cobsv.every((c: any) => c.status !== 'EM_PROCESSAMENTO')) return found;
      if (Date.now() > deadline) throw new Error(`lotecobv ${r.id}/${id} still processing`);
    }
  }

  beforeAll(async () => {
    db = await createTestDatabase('isolation');
    dataDir = mkdtempSync(path.join(tmpdir(), 'pix-isolation-'));
    const config = loadConfig({ MODE: 'local', LOG_LEVEL: 'error', DATA_DIR: dataDir });
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot({ config, databaseUrl: db.url })] })
      .overrideProvider(RECEIVER_DIRECTORY)
      .useValue(directory)
      .compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: ['error'], bodyParser: false });
    await app.init();
    commands = app.get(CommandBus);
    queries = app.get(QueryBus);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps two charges under one txid apart: get, history, revision and list', async () => {
    const txid = newTxid('same');
    await commands.execute(new PutCobVCommand(A, txid, charge(A, { valor: { original: '10.00' } })));
    await commands.execute(new PutCobVCommand(B, txid, charge(B, { valor: { original: '20.00' } })));
    await commands.execute(new PatchCobVCommand(B, txid, { valor: { original: '30.00' } }));
    expect(await cobv(A, txid)).toMatchObject({ revisao: 0, recebedor: { nome: A.nome }, cobranca: { valor: { original: 1000 } } });
    expect(await cobv(B, txid)).toMatchObject({ revisao: 1, recebedor: { nome: B.nome }, cobranca: { valor: { original: 3000 } } });
    expect(await cobv(B, txid, '0')).toMatchObject({ revisao: 0, cobranca: { valor: { original: 2000 } } });
    await expect(cobv(A, txid, '1')).rejects.toMatchObject({ kind: 'CobVConsultaInvalida' });
    await expect(cobv(GONE, txid)).rejects.toMatchObject({ kind: 'CobVNaoEncontrada' });
    await expect(cobv(GONE, txid, '0')).rejects.toMatchObject({ kind: 'CobVNaoEncontrada' });
    for (const r of [A, B]) {
      const listed = await queries.execute(new ListCobVQuery(r, WHOLE_TIME));
      expect(listed.cobs.length).toBeGreaterThan(0);
      expect(listed.cobs.filter((c: any) => c.recebedor.nome !== r.nome)).toEqual([]);
      // The tenant id is ours: never in an answer.
      expect(listed.cobs.filter((c: any) => 'id' in c.recebedor)).toEqual([]);
    }
  });

  it("a batch request of one receiver reserves the txid for that receiver only", async () => {
    const txid = newTxid('resv');
    // Denied (NEGADA) requests keep their txid reserved for the batch that holds them.
    await commands.execute(new PutLoteCobVCommand(A, '900', { descricao: 'Reserva', cobsv: [{ txid, ...charge(A, { valor: { original: '0.00' } }) }] }));
    expect((await processed(A, '900')).cobsv).toMatchObject([{ txid, status: 'NEGADA' }]);
    await expect(commands.execute(new PutCobVCommand(A, txid, charge(A)))).rejects.toMatchObject({ kind: 'CobVOperacaoInvalida', violacoes: [{ propriedade: 'txid' }] });
    await commands.execute(new PutCobVCommand(B, txid, charge(B)));
    expect(await cobv(B, txid)).toMatchObject({ status: 'ATIVA', recebedor: { nome: B.nome } });
  });

  it('processes two receivers\' batches with the same id and txids, each into its own charges', async () => {
    const [t1, t2] = [newTxid('lot1'), newTxid('lot2')];
    for (const r of [A, B]) await commands.execute(new PutLoteCobVCommand(r, '1', { descricao: `Lote ${r.id}`, cobsv: [t1, t2].map((txid) => ({ txid, ...charge(r) })) }));
    for (const r of [A, B]) {
      expect(await processed(r, '1')).toMatchObject({ id: 1, descricao: `Lote ${r.id}`, cobsv: [{ txid: t1, status: 'CRIADA' }, { txid: t2, status: 'CRIADA' }] });
      for (const txid of [t1, t2]) expect(await cobv(r, txid)).toMatchObject({ loteCobVId: 1, recebedor: { nome: r.nome }, cobranca: { chave: r.chaves[0] } });
      // The page is streamed, one batch at a time.
      const listed = JSON.parse(await text(await queries.execute(new ListLoteCobVQuery(r, WHOLE_TIME))));
      expect(listed.lotes.map((l: any) => l.descricao)).toEqual(expect.arrayContaining([`Lote ${r.id}`]));
      expect(listed.lotes.filter((l: any) => l.descricao.startsWith('Lote ') && l.descricao !== `Lote ${r.id}`)).toEqual([]);
      expect((await queries.execute(new ListCobVQuery(r, { ...WHOLE_TIME, loteCobVId: '1' }))).cobs.map((c: any) => c.txid).sort()).toEqual([t1, t2].sort());
    }
    await expect(lote(GONE, '1')).rejects.toMatchObject({ kind: 'LoteCobVNaoEncontrado' });
    // A's own charge blocks A's new batch; the same txid is free for B.
    await expect(commands.execute(new PutLoteCobVCommand(A, '2', { descricao: 'Repete', cobsv: [{ txid: t1, ...charge(A) }] }))).rejects.toMatchObject({
      kind: 'LoteCobVOperacaoInvalida',
      violacoes: [{ propriedade: 'loteCobV.cobsV', valor: t1 }],
    });
    const t3 = newTxid('lot3');
    await commands.execute(new PutCobVCommand(A, t3, charge(A)));
    await commands.execute(new PutLoteCobVCommand(B, '2', { descricao: 'Livre', cobsv: [{ txid: t3, ...charge(B) }] }));
    expect((await processed(B, '2')).cobsv).toMatchObject([{ txid: t3, status: 'CRIADA' }]);
  });

  it('denies the requests of a batch whose receiver the directory no longer knows', async () => {
    const txid = newTxid('gone');
    await commands.execute(new PutLoteCobVCommand(GONE, '1', { descricao: 'Sem recebedor', cobsv: [{ txid, ...charge(GONE) }] }));
    expect((await processed(GONE, '1')).cobsv).toMatchObject([{ txid, status: 'NEGADA', problema: { type: expect.stringMatching(/CobVOperacaoInvalida$/) } }]);
    await expect(cobv(GONE, txid)).rejects.toMatchObject({ kind: 'CobVNaoEncontrada' });
  });

  it("registers webhooks only on the receiver's own keys and treats another's as absent", async () => {
    await commands.execute(new PutWebhookCommand(A, A.chaves[0], { webhookUrl: 'https://a.example/hook' }));
    await expect(commands.execute(new PutWebhookCommand(B, A.chaves[0], { webhookUrl: 'https://b.example/hook' }))).rejects.toMatchObject({
      kind: 'WebhookOperacaoInvalida',
      violacoes: [{ propriedade: 'chave' }],
    });
    await expect(queries.execute(new GetWebhookQuery(B, A.chaves[0]))).rejects.toMatchObject({ kind: 'WebhookNaoEncontrado' });
    await expect(commands.execute(new DeleteWebhookCommand(B, A.chaves[0]))).rejects.toMatchObject({ kind: 'WebhookNaoEncontrado' });
    expect(await queries.execute(new GetWebhookQuery(A, A.chaves[0]))).toEqual({ webhookUrl: 'https://a.example/hook', chave: A.chaves[0], criacao: expect.any(String) });
    expect((await queries.execute(new ListWebhookQuery(A, {}))).webhooks.map((w: any) => w.chave)).toEqual([A.chaves[0]]);
    expect((await queries.execute(new ListWebhookQuery(B, {}))).webhooks).toEqual([]);
  });

  it("settles the charge of the key's owner only, and shows each Pix to its receiver alone", async () => {
    const txid = newTxid('pay');
    for (const r of [A, B]) await commands.execute(new PutCobVCommand(r, txid, charge(r)));
    const settle = app.get(SettleCashIn);
    const paidToB = cashIn(txid, B.chaves[0]);
    await settle.handle(paidToB);
    expect(await cobv(B, txid)).toMatchObject({ status: 'CONCLUIDA', pix: [{ endToEndId: paidToB.endToEndId }] });
    expect(await cobv(A, txid)).toMatchObject({ status: 'ATIVA' });
    expect(await queries.execute(new GetPixQuery(B, paidToB.endToEndId))).toMatchObject({ endToEndId: paidToB.endToEndId, txid });
    await expect(queries.execute(new GetPixQuery(A, paidToB.endToEndId))).rejects.toMatchObject({ kind: 'PixNaoEncontrado' });
    // A Pix to a key nobody here owns is kept, settles nothing and is shown to nobody.
    const nobodys = cashIn(txid, '+5511999990009');
    await settle.handle(nobodys);
    expect(await cobv(A, txid)).toMatchObject({ status: 'ATIVA' });
    for (const r of [A, B]) await expect(queries.execute(new GetPixQuery(r, nobodys.endToEndId))).rejects.toMatchObject({ kind: 'PixNaoEncontrado' });
    const listed = async (r: Recebedor) => (await queries.execute(new ListPixQuery(r, WHOLE_TIME))).pix.map((p: any) => p.endToEndId);
    expect(await listed(B)).toEqual([paidToB.endToEndId]);
    expect(await listed(A)).toEqual([]);
  });

  it('settles one charge per endToEndId: the same id again with another txid and amount settles nothing (the first recording stands)', async () => {
    const [first, second] = [newTxid('e2a'), newTxid('e2b')];
    for (const txid of [first, second]) await commands.execute(new PutCobVCommand(B, txid, charge(B)));
    const settle = app.get(SettleCashIn);
    const paid = cashIn(first, B.chaves[0]);
    await settle.handle(paid);
    await settle.handle({ ...cashIn(second, B.chaves[0], '99.00'), endToEndId: paid.endToEndId });
    expect(await cobv(B, first)).toMatchObject({ status: 'CONCLUIDA', pix: [{ endToEndId: paid.endToEndId, valor: paid.valor }] });
    expect(await cobv(B, second)).toMatchObject({ status: 'ATIVA' });
    expect(await cobv(B, second)).not.toHaveProperty('pix');
    expect(await queries.execute(new GetPixQuery(B, paid.endToEndId))).toMatchObject({ txid: first, valor: paid.valor });
  });
});
