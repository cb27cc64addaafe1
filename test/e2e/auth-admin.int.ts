import { randomUUID } from 'node:crypto';
import { DomainError, webhookStreamId, type DadosRecebedor } from '@pix/domain';
import { PostgresEventStore } from '@pix/event-store';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import type { Pool } from 'pg';
import { AccessDirectory } from '../../apps/api/src/access/access-directory';
import { runAdmin } from '../../apps/api/src/access/admin/cli';
import { addKey, createClient, createReceiver, disableClient, listClients, listReceivers, removeKey, rotateClientSecret } from '../../apps/api/src/access/admin/operations';
import { chargesInReadModel } from '../../apps/api/src/access/admin/key-charges';
import { verifySecret } from '../../apps/api/src/access/secrets';
import { migrateApiSchema } from '../../apps/api/src/infrastructure/schema';

// The operator's functions (what `npm run admin` runs) and the directory the API reads, over a
// real PostgreSQL event store.
jest.setTimeout(60_000);

const LOJA: DadosRecebedor = { nome: 'Loja Um SA', cnpj: '12ABC34501DE35', logradouro: 'Rua A, 1', cidade: 'Campinas', uf: 'SP', cep: '13010000' };
const KEY = 'loja@example.com';

async function kindOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof DomainError) return e.kind;
    throw e;
  }
  return 'no error';
}

describe('access administration over the event store', () => {
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  const ctx = () => ({ store, charges: chargesInReadModel(pool) });

  beforeAll(async () => {
    db = await createTestDatabase('auth_admin');
    pool = testPool(db.url, 6);
    store = await PostgresEventStore.create({ pool, listen: false });
    // The charge read model `key remove` sweeps (empty here: no charge is created).
    await migrateApiSchema(pool);
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await db?.drop();
  });

  it('registers a receiver (a retry with the same data is a no-op) and refuses other data under the same id', async () => {
    expect(await createReceiver(ctx(), 'loja1', LOJA)).toEqual({ id: 'loja1', ...LOJA, chaves: [] });
    await createReceiver(ctx(), 'loja1', LOJA);
    expect(await store.readStream('recebedor-loja1')).toHaveLength(1);
    expect(await kindOf(createReceiver(ctx(), 'loja1', { ...LOJA, nome: 'Outra' }))).toBe('RecebedorJaCadastrado');
    expect(await kindOf(createReceiver(ctx(), 'loja-x', { ...LOJA, cnpj: '12ABC34501DE36' }))).toBe('RecebedorInvalido');
    expect((await listReceivers(ctx())).map((r) => r.id)).toEqual(['loja1']);
  });

  it('gives a Pix key to one receiver only, even when two claim it at the same moment', async () => {
    await createReceiver(ctx(), 'loja2', { ...LOJA, cnpj: undefined, cpf: '12345678909' });
    const key = '+5511988887777';
    const outcomes = await Promise.all([addKey(ctx(), 'loja1', key).then(() => 'loja1', (e) => e.kind), addKey(ctx(), 'loja2', key).then(() => 'loja2', (e) => e.kind)]);
    expect(outcomes.filter((o) => o === 'ChaveJaVinculada')).toHaveLength(1);
    const winner = outcomes.find((o) => o !== 'ChaveJaVinculada')!;
    expect(await new AccessDirectory(store, 0).ownerOfChave(key)).toBe(winner);
    expect(await store.readStream(`chave-${key}`)).toHaveLength(1);
  });

  it('links and unlinks keys; an unlinked key may go to another receiver; a key not held is refused', async () => {
    await addKey(ctx(), 'loja1', KEY);
    expect(await kindOf(addKey(ctx(), 'loja2', KEY))).toBe('ChaveJaVinculada');
    expect(await kindOf(removeKey(ctx(), 'loja2', KEY))).toBe('ChaveNaoVinculada');
    expect(await kindOf(addKey(ctx(), 'loja1', 'Not A Key'))).toBe('ChaveInvalida');
    expect(await kindOf(addKey(ctx(), 'nobody', KEY))).toBe('RecebedorNaoEncontrado');
    expect((await removeKey(ctx(), 'loja1', KEY)).chaves).not.toContain(KEY);
    expect((await addKey(ctx(), 'loja2', KEY)).chaves).toContain(KEY);
  });

  it("takes a key's webhook away with the key, so its next owner's notifications never reach the old URL", async () => {
    const key = 'pagamentos@loja1.com.br';
    await addKey(ctx(), 'loja1', key);
    await store.appendToStream(webhookStreamId(key), [{ id: randomUUID(), type: 'WebhookConfigurado', data: { chave: key, webhookUrl: 'https://loja1.example.com/hook', criacao: new Date().toISOString(), recebedorId: 'loja1' } }], 'no_stream');
    await removeKey(ctx(), 'loja1', key);
    const events = await store.readStream(webhookStreamId(key));
    expect(events.map((e) => e.type)).toEqual(['WebhookConfigurado', 'WebhookRemovido']);
    expect(events[1].data).toMatchObject({ chave: key, recebedorId: 'loja1' });
    // Moving the key on writes nothing more to the webhook stream.
    await addKey(ctx(), 'loja2', key);
    await removeKey(ctx(), 'loja2', key);
    expect(await store.readStream(webhookStreamId(key))).toHaveLength(2);
  });

  it('creates clients (secret shown once, stored as a hash), rotates (generation + 1) and disables them', async () => {
    const c = await createClient(ctx(), { recebedorId: 'loja1', scopes: ['cobv.read', 'cobv.write'] });
    expect(c).toEqual({ clientId: expect.stringMatching(/^loja1-[0-9a-f]{10}$/), recebedorId: 'loja1', scopes: ['cobv.write', 'cobv.read'], secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const stored = JSON.stringify((await store.readStream(`cliente-${c.clientId}`)).map((e) => e.data));
    expect(stored).not.toContain(c.secret);
    const directory = new AccessDirectory(store, 60_000);
    const record = await directory.client(c.clientId);
    expect(record).toMatchObject({ recebedorId: 'loja1', enabled: true, generation: 1 });
    expect(await verifySecret(c.secret, record!.secretHash)).toBe(true);

    const rotated = await rotateClientSecret(ctx(), c.clientId);
    expect(rotated.generation).toBe(2);
    // Cached for the window; a fresh read (the token endpoint's) sees the rotation at once.
    expect((await directory.client(c.clientId))!.generation).toBe(1);
    expect((await directory.client(c.clientId, { fresh: true }))!.generation).toBe(2);

    await disableClient(ctx(), c.clientId);
    expect(await kindOf(rotateClientSecret(ctx(), c.clientId))).toBe('ClienteDesativado');
    expect(await kindOf(createClient(ctx(), { recebedorId: 'nobody' }))).toBe('RecebedorNaoEncontrado');
    expect(await kindOf(createClient(ctx(), { recebedorId: 'loja1', clientId: c.clientId }))).toBe('ClienteJaCadastrado');
    expect(await kindOf(createClient(ctx(), { recebedorId: 'loja1', scopes: ['cob.write'] }))).toBe('ClienteInvalido');
    expect(await listClients(ctx())).toEqual([{ clientId: c.clientId, recebedorId: 'loja1', scopes: ['cobv.write', 'cobv.read'], generation: 2, enabled: false }]);
  });

  it('the directory serves receivers and key owners from memory within its window', async () => {
    const directory = new AccessDirectory(store, 60_000);
    expect((await directory.recebedor('loja2'))?.chaves).toContain(KEY);
    expect(await directory.ownerOfChave(KEY)).toBe('loja2');
    await removeKey(ctx(), 'loja2', KEY);
    const reads = jest.spyOn(store, 'readStream');
    expect(await directory.ownerOfChave(KEY)).toBe('loja2');
    expect((await directory.recebedor('loja2'))?.chaves).toContain(KEY);
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
    expect(await new AccessDirectory(store, 0).ownerOfChave(KEY)).toBeUndefined();
    expect(await directory.recebedor('nobody')).toBeUndefined();
  });

  it('the admin command: output, exit 0 / 1 (refused) / 2 (usage)', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const run = (...argv: string[]) => runAdmin(argv, ctx(), (l) => out.push(l), (l) => err.push(l));
    expect(await run('receiver', 'create', '--id', 'loja3', '--name', 'Loja Três', '--cpf', '12345678909', '--street', 'Rua B', '--city', 'Recife', '--uf', 'PE', '--cep', '50000000', '--key', '+5581999990000')).toBe(0);
    expect(out.pop()).toBe('receiver loja3: Loja Três, CPF 12345678909, Rua B, Recife-PE, CEP 50000000; keys: +5581999990000');
    expect(await run('client', 'create', '--receiver', 'loja3', '--id', 'erp3', '--scopes', 'pix.read')).toBe(0);
    const secret = /client_secret: (\S+)/.exec(out.join('\n'))![1];
    expect(await verifySecret(secret, (await new AccessDirectory(store, 0).client('erp3'))!.secretHash)).toBe(true);
    expect(await run('client', 'rotate-secret', '--id', 'erp3')).toBe(0);
    expect(out.join('\n')).toMatch(/generation 2/);
    expect(await run('key', 'add', '--receiver', 'loja3', '--key', '+5511988887777')).toBe(1);
    expect(err.pop()).toMatch(/^refused \(ChaveJaVinculada\): The Pix key \+5511988887777 already belongs to receiver "loja[12]"/);
    expect(await run('client', 'disable')).toBe(2);
    expect(err.pop()).toMatch(/--id is required[\s\S]*usage: npm run admin/);
    expect(await run('receiver', 'create', '--bogus', 'x')).toBe(2);
    expect(await run('client', 'scopes', '--id', 'erp3', '--scopes', 'pix.read,payloadlocation.read')).toBe(0);
    expect(out.pop()).toMatch(/^client erp3: scopes pix\.read payloadlocation\.read;/);
    expect(await run('client', 'scopes', '--id', 'erp3', '--scopes', 'pix.read,root')).toBe(1);
    expect(err.pop()).toMatch(/refused \(ClienteInvalido\).*unknown scope/);
    expect(await run('client', 'list')).toBe(0);
    // A table (cli-table3): one row per client.
    expect(out.pop()).toMatch(/^│ erp3 +│ loja3 +│ enabled +│ 2 +│ pix\.read payloadlocation\.read +│$/m);
  });

  it('receiver create with a key it cannot have writes nothing: neither the receiver nor its other keys', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const run = (...argv: string[]) => runAdmin(argv, ctx(), (l) => out.push(l), (l) => err.push(l));
    const create = (id: string, ...keys: string[]) =>
      run('receiver', 'create', '--id', id, '--name', 'Loja Quatro', '--cpf', '12345678909', '--street', 'Rua C', '--city', 'Recife', '--uf', 'PE', '--cep', '50000000', ...keys.flatMap((k) => ['--key', k]));
    expect(await create('loja4', 'BAD')).toBe(1);
    expect(err.pop()).toMatch(/^refused \(ChaveInvalida\)/);
    expect(await create('loja5', 'loja5@example.com', '+5511988887777')).toBe(1);
    expect(err.pop()).toMatch(/^refused \(ChaveJaVinculada\)/);
    expect(await run('receiver', 'list')).toBe(0);
    expect(out.pop()).not.toMatch(/loja4|loja5/);
    // The free key stayed free: another receiver takes it.
    expect(await create('loja6', 'loja5@example.com')).toBe(0);
    expect(out.pop()).toMatch(/^receiver loja6: .*keys: loja5@example\.com$/);
  });
});
