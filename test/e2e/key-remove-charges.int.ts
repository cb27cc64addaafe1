import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { cobvStreamId, type DadosRecebedor } from '@pix/domain';
import { PostgresEventStore, type EventStore } from '@pix/event-store';
import { enableInlineProjections, inlineOn } from '@pix/read-models';
import { createResponseValidator, testPool } from '@pix/testing';
import type { Pool } from 'pg';
import { AccessDirectory } from '../../apps/api/src/access/access-directory';
import { onChave, onRecebedor } from '../../apps/api/src/access/access-streams';
import { chargesInReadModel } from '../../apps/api/src/access/admin/key-charges';
import { addKey, createReceiver, removeKey } from '../../apps/api/src/access/admin/operations';
import { LIVE_PROJECTIONS } from '../../apps/api/src/infrastructure/projections';
import { newTxid, startApi, validCobV, type RunningApi } from '../support/api-harness';
import { TEST_PIX_KEY, TEST_RECEIVER } from '../support/api-process';
import { createCharge, problemTypeUri } from '../support/cobv-expect';

// A Pix key leaves its receiver (`admin key remove`): the receiver's ATIVA charges on it are
// removed by the PSP (REMOVIDA_PELO_PSP) and their payload locations stop serving them, since a
// payer's bank would find the key's next holder in the DICT and nobody could settle them (ADR 9).
// Production mode over PostgreSQL, the admin command as an operator runs it (needs `npm run build`).
jest.setTimeout(90_000);

const ROOT = path.resolve(__dirname, '../..');
const OTHER_KEY = 'cobrancas@empresa.example.com';
const RCV = TEST_RECEIVER.id;
const validator = createResponseValidator();

describe('key remove takes the key’s ATIVA charges with it', () => {
  let api: RunningApi;
  let pool: Pool;
  let store: PostgresEventStore;
  // What the admin command does: its appends write the inline read models as the API's do.
  const ctx = (over: { store?: EventStore } = {}) => ({ store: over.store ?? store, charges: chargesInReadModel(pool) });

  beforeAll(async () => {
    // AUTH_CACHE_MS=0: the API sees a key leave at once (the command waits the cache out otherwise).
    api = await startApi({ env: { MODE: 'production', AUTH_CACHE_MS: '0', LOCATION_HOST: 'pix.example.test' }, chaves: [TEST_PIX_KEY, OTHER_KEY] });
    pool = testPool(api.db.url, 4);
    store = await PostgresEventStore.create({ pool, listen: false });
    await enableInlineProjections(store, pool, inlineOn(store, LIVE_PROJECTIONS));
  });
  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await api?.stop();
  });

  const admin = (...args: string[]) => {
    const run = spawnSync(process.execPath, ['tools/launch.js', 'apps/api/src/admin.js', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: api.db.url, AUTH_CACHE_MS: '0' }, encoding: 'utf8', timeout: 30_000 });
    // stderr says which store the command used, and nothing else.
    expect({ args, status: run.status, stderr: run.stderr }).toEqual({ args, status: 0, stderr: `admin: using PostgreSQL at DATABASE_URL ${new URL(api.db.url).toString()}\n` });
    return run.stdout;
  };
  /** GET on the charge's payload location, checked against the official contract. */
  const location = async (charge: { location: string }) => {
    const p = charge.location.slice(charge.location.indexOf('/'));
    const r = await fetch(`${api.baseUrl}${p}`);
    const text = await r.text();
    const contentType = r.headers.get('content-type') ?? undefined;
    const result = validator.validateResponse({ method: 'GET', path: p.replace(/^\/qr\/v2/, ''), status: r.status, contentType, body: text, server: 'location' });
    if (!result.valid) throw new Error(`GET ${p} → ${r.status} violates the contract:\n${result.errors.join('\n')}\n${text.slice(0, 1000)}`);
    return { status: r.status, body: contentType?.startsWith('application/problem+json') ? JSON.parse(text) : text };
  };
  const status = async (txid: string) => (await api.request('GET', `/cobv/${txid}`)).body.status;
  const charges = (n: number, chave: string, prefix: string) => Promise.all(Array.from({ length: n }, () => createCharge(api, newTxid(prefix), validCobV({ chave }))));

  it('removes them (GET and lists show REMOVIDA_PELO_PSP, the location answers 404) and leaves the rest alone; the CLI says how many', async () => {
    const onKey = await charges(3, TEST_PIX_KEY, 'kr');
    const [onOther] = await charges(1, OTHER_KEY, 'ko');
    const [removedBefore] = await charges(1, TEST_PIX_KEY, 'ku');
    expect((await api.request('PATCH', `/cobv/${removedBefore.txid}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).status).toBe(200);
    expect((await location(onKey[0])).status).toBe(200);

    const out = admin('key', 'remove', '--receiver', RCV, '--key', TEST_PIX_KEY);
    expect(out).toContain(`unlinked ${TEST_PIX_KEY}`);
    expect(out).toContain('its ATIVA charges removed (REMOVIDA_PELO_PSP): 3');

    for (const c of onKey) {
      expect((await api.request('GET', `/cobv/${c.txid}`)).body).toMatchObject({ status: 'REMOVIDA_PELO_PSP', revisao: 1, chave: TEST_PIX_KEY });
      const loc = await location(c);
      expect([loc.status, loc.body.type]).toEqual([404, problemTypeUri('CobPayloadNaoEncontrado')]);
      expect(loc.body.detail).toMatch(/REMOVIDA_PELO_PSP/);
    }
    const list = await api.request('GET', '/cobv?inicio=2000-01-01T00:00:00Z&fim=2100-01-01T00:00:00Z&status=REMOVIDA_PELO_PSP');
    expect(list.body.cobs.map((c: { txid: string }) => c.txid).sort()).toEqual(onKey.map((c) => c.txid).sort());
    expect(await status(onOther.txid)).toBe('ATIVA');
    expect((await location(onOther)).status).toBe(200);
    expect(await status(removedBefore.txid)).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    expect(await new AccessDirectory(store, 0).ownerOfChave(TEST_PIX_KEY)).toBeUndefined();
  });

  it('run again after a crash in the middle of the sweep, finishes the job: every charge removed once, the key released', async () => {
    await addKey(ctx(), RCV, TEST_PIX_KEY);
    const onKey = await charges(4, TEST_PIX_KEY, 'kc');
    // The process dies on its append to one charge: the key is unlisted, some charges removed, the claim still held.
    const victim = cobvStreamId(RCV, onKey[2].txid);
    const crashing = new Proxy(store, {
      get(target, prop) {
        if (prop === 'appendToStream')
          return (id: string, ...rest: Parameters<EventStore['appendToStream']> extends [unknown, ...infer R] ? R : never) =>
            id === victim ? Promise.reject(new Error('process killed')) : target.appendToStream(id, ...rest);
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await expect(removeKey(ctx({ store: crashing }), RCV, TEST_PIX_KEY)).rejects.toThrow('process killed');
    expect(await status(onKey[2].txid)).toBe('ATIVA');
    expect((await store.readStream(`chave-${TEST_PIX_KEY}`)).at(-1)?.type).toBe('ChaveReivindicada');

    const again = await removeKey(ctx(), RCV, TEST_PIX_KEY);
    expect(again.chaves).not.toContain(TEST_PIX_KEY);
    expect(again.cobrancasRemovidas).toBeGreaterThanOrEqual(1);
    for (const c of onKey) {
      expect(await status(c.txid)).toBe('REMOVIDA_PELO_PSP');
      expect((await store.readStream(cobvStreamId(RCV, c.txid))).filter((e) => e.type === 'CobVRemovidaPeloPsp')).toHaveLength(1);
    }
    expect((await store.readStream(`chave-${TEST_PIX_KEY}`)).at(-1)?.type).toBe('ChaveLiberada');
  });

  it('a charge that outran the sweep is not served as payable, and key remove run again sweeps it though the key is gone (even to another receiver)', async () => {
    await addKey(ctx(), RCV, TEST_PIX_KEY);
    const [late] = await charges(1, TEST_PIX_KEY, 'kl');
    // The key leaves as if this charge's PUT had appended just after the sweep: unlisted and released, no sweep.
    await onRecebedor(ctx(), RCV, (now) => ({ type: 'DesvincularChave', recebedorId: RCV, chave: TEST_PIX_KEY, now }));
    await onChave(ctx(), TEST_PIX_KEY, (now) => ({ type: 'LiberarChave', chave: TEST_PIX_KEY, recebedorId: RCV, now }));
    const rcv2: DadosRecebedor = { nome: 'Outra Loja SA', cnpj: '12ABC34501DE35', logradouro: 'Rua B, 2', cidade: 'Campinas', uf: 'SP', cep: '13010000' };
    await createReceiver(ctx(), 'rcv2', rcv2, [TEST_PIX_KEY]);

    expect(await status(late.txid)).toBe('ATIVA');
    const loc = await location(late);
    expect([loc.status, loc.body.type]).toEqual([404, problemTypeUri('CobPayloadNaoEncontrado')]);
    expect(loc.body.detail).toMatch(/não pertence mais ao recebedor/);

    const out = admin('key', 'remove', '--receiver', RCV, '--key', TEST_PIX_KEY);
    expect(out).toContain(`${TEST_PIX_KEY} was already unlinked from ${RCV}`);
    expect(out).toContain('its ATIVA charges removed (REMOVIDA_PELO_PSP): 1');
    expect(await status(late.txid)).toBe('REMOVIDA_PELO_PSP');
    // The key is rcv2's, untouched.
    expect(await new AccessDirectory(store, 0).ownerOfChave(TEST_PIX_KEY)).toBe('rcv2');
  });
});
