import { PostgresEventStore } from '@pix/event-store';
import { startupFailureLine } from '@pix/observability';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { createClient, createReceiver } from './admin/operations';
import { seedLocalAccess } from './local-seed';

// A README audit: `LOCAL_PIX_KEY` naming a key that `npm run admin` had given another receiver
// stopped `npm start` with a DomainError's stack (exit 1), where a configuration conflict is one line and exit 2.
describe('local mode seed: LOCAL_PIX_KEY or LOCAL_CLIENT_ID taken by another receiver', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  const dados = { nome: 'Loja Um Ltda', cnpj: '11222333000181', logradouro: 'Rua A, 10', cidade: 'Recife', uf: 'PE', cep: '50000000' };
  const local = { id: 'local', nome: 'Empresa de Logística SA', cnpj: '56989000019563', logradouro: 'Rua 15', cidade: 'São Paulo', uf: 'SP', cep: '70800100' };
  const charges = { ativas: async () => [] };
  beforeAll(async () => {
    db = await createTestDatabase('local_seed_conflict');
    store = await PostgresEventStore.create({ poolConfig: { connectionString: db.url }, listen: false });
    await createReceiver({ store }, 'loja1', dados, ['+5581999990000']);
    await createClient({ store }, { recebedorId: 'loja1', clientId: 'erp-loja1', secret: 'a-secret-of-loja1' });
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  it('a key: one line naming LOCAL_PIX_KEY, its holder and the fix', async () => {
    const seeding = seedLocalAccess({ store, charges }, { recebedor: { ...local, chaves: ['+5581999990000'] } as never, clientId: 'sandbox', clientSecret: 'sandbox-secret' });
    const error = await seeding.catch((e: unknown) => e);
    expect(startupFailureLine(error)).toBe(
      'LOCAL_PIX_KEY: the Pix key +5581999990000 belongs to receiver "loja1". Fix: drop it from LOCAL_PIX_KEY, or release it first (npm run admin -- key remove --receiver loja1 --key +5581999990000)',
    );
  });

  it('a client id: one line naming LOCAL_CLIENT_ID', async () => {
    const seeding = seedLocalAccess({ store, charges }, { recebedor: { ...local, chaves: [] } as never, clientId: 'erp-loja1', clientSecret: 'sandbox-secret' });
    const error = await seeding.catch((e: unknown) => e);
    expect(startupFailureLine(error)).toBe('LOCAL_CLIENT_ID: "erp-loja1" is a client of receiver "loja1". Fix: choose another LOCAL_CLIENT_ID');
  });
});
