import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PostgresEventStore } from '@pix/event-store';
import { createTestDatabase, testPool, type TestDatabase } from '@pix/testing';
import type { Pool } from 'pg';
import { tokenKeyFile } from '../../apps/api/src/access/token/token-key';
import { LOCAL_KEY, newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';

// Local mode seeds its receiver and client at every start-up, through the event store: the
// first start registers them, a restart with the same configuration appends nothing, a changed
// configuration appends exactly the change. The signing key is kept in DATA_DIR.
jest.setTimeout(90_000);

describe('local mode seeding across restarts', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pix-auth-seed-'));
  let db: TestDatabase;
  let pool: Pool;
  let store: PostgresEventStore;
  let api: RunningApi | undefined;

  const boot = async (env: Record<string, string> = {}) => {
    await api?.stop({ keepDatabase: true });
    api = await startApi({ db, env: { DATA_DIR: dataDir, ...env } });
    return api;
  };
  // Every event committed so far (unfenced): a checkpointing reader's view holds back events
  // while an older transaction is still open (any of the API's short polls), which made this
  // suite see a just-seeded rotation one test late.
  const accessEvents = async () => (await store.readAll({ maxCount: 10_000, unfenced: true })).filter((e) => /^(recebedor|chave|cliente|access)-/.test(e.streamId)).map((e) => `${e.streamId} ${e.type}`);
  const getCobv = (a: RunningApi, token: string) => a.request('GET', `/cobv/${newTxid('seed')}`, undefined, { authorization: `Bearer ${token}` });

  beforeAll(async () => {
    db = await createTestDatabase('auth_seed');
    pool = testPool(db.url, 2);
    store = await PostgresEventStore.create({ pool, listen: false });
  });
  afterAll(async () => {
    await api?.stop({ keepDatabase: true });
    await store?.close();
    await pool?.end();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('registers the receiver, its key and the client once; a restart appends nothing and old tokens still work', async () => {
    const first = await boot();
    const token = await first.tokenFor();
    expect((await getCobv(first, token)).status).toBe(404);
    const seeded = await accessEvents();
    expect([...seeded].sort()).toEqual(
      [
        'access-recebedores RecebedorIndexado',
        'recebedor-local RecebedorCadastrado',
        `chave-${LOCAL_KEY} ChaveReivindicada`,
        'recebedor-local ChaveVinculada',
        'access-clientes ClienteIndexado',
        'cliente-sandbox ClienteCriado',
      ].sort(),
    );
    // The signing key: made once, owner-only, in DATA_DIR (never in the repository).
    expect(statSync(tokenKeyFile(dataDir)).mode & 0o777).toBe(0o600);

    const second = await boot();
    expect(await accessEvents()).toEqual(seeded);
    expect((await getCobv(second, token)).status).toBe(404);
  });

  it('a changed LOCAL_CLIENT_SECRET rotates the secret once; the old secret stops working', async () => {
    const before = (await accessEvents()).length;
    const changed = await boot({ LOCAL_CLIENT_SECRET: 'another-local-secret' });
    expect((await accessEvents()).slice(before)).toEqual(['cliente-sandbox SegredoRotacionado']);
    await expect(changed.tokenFor({ secret: 'sandbox-secret' })).rejects.toThrow(/401.*invalid_client/);
    expect((await getCobv(changed, await changed.tokenFor())).status).toBe(404);
    await boot({ LOCAL_CLIENT_SECRET: 'another-local-secret' });
    expect(await accessEvents()).toHaveLength(before + 1);
  });

  it('follows LOCAL_PIX_KEY and LOCAL_RECEIVER_*: new keys linked, dropped keys released, data updated', async () => {
    const before = (await accessEvents()).length;
    const other = 'loja@example.com';
    // A charge on the key about to be dropped: it leaves with the key (REMOVIDA_PELO_PSP), as `admin key remove` does.
    const onOldKey = newTxid('seeddrop');
    expect((await api!.request('PUT', `/cobv/${onOldKey}`, validCobV({ chave: LOCAL_KEY }))).status).toBe(201);
    const a = await boot({ LOCAL_CLIENT_SECRET: 'another-local-secret', LOCAL_PIX_KEY: other, LOCAL_RECEIVER_CITY: 'Campinas' });
    expect((await accessEvents()).slice(before).sort()).toEqual(
      [
        'recebedor-local RecebedorAtualizado',
        `chave-${other} ChaveReivindicada`,
        'recebedor-local ChaveVinculada',
        'recebedor-local ChaveDesvinculada',
        `chave-${LOCAL_KEY} ChaveLiberada`,
      ].sort(),
    );
    // The directory now names the new key's owner and no longer the old one's.
    const put = await a.request('PUT', `/webhook/${encodeURIComponent(other)}`, { webhookUrl: 'http://localhost:9/hook' });
    expect(put.status).toBe(200);
    const old = await a.request('PUT', `/webhook/${LOCAL_KEY}`, { webhookUrl: 'http://localhost:9/hook' });
    expect(old.status).toBe(400);
    expect((await a.request('GET', `/cobv/${onOldKey}`)).body).toMatchObject({ status: 'REMOVIDA_PELO_PSP', chave: LOCAL_KEY });
  });

  it('gives the sandbox client every scope again when a data folder of an older version has fewer (payloadlocation.* came later)', async () => {
    const before = (await accessEvents()).length;
    // As an older version left it: the client without the location scopes.
    const older = ['cobv.write', 'cobv.read', 'lotecobv.write', 'lotecobv.read', 'webhook.write', 'webhook.read', 'pix.read', 'pix.write'];
    const revision = (await store.readStream('cliente-sandbox')).length - 1;
    await store.appendToStream('cliente-sandbox', [{ id: randomUUID(), type: 'EscoposDefinidos', data: { clientId: 'sandbox', scopes: older, em: new Date().toISOString() } }], BigInt(revision));
    const a = await boot({ LOCAL_CLIENT_SECRET: 'another-local-secret', LOCAL_PIX_KEY: 'loja@example.com', LOCAL_RECEIVER_CITY: 'Campinas' });
    expect((await accessEvents()).slice(before)).toEqual(['cliente-sandbox EscoposDefinidos', 'cliente-sandbox EscoposDefinidos']);
    expect((await a.request('POST', '/loc', { tipoCob: 'cobv' })).status).toBe(201);
    await boot({ LOCAL_CLIENT_SECRET: 'another-local-secret', LOCAL_PIX_KEY: 'loja@example.com', LOCAL_RECEIVER_CITY: 'Campinas' });
    expect(await accessEvents()).toHaveLength(before + 2);
  });
});
