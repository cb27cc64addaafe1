import { Pool } from 'pg';
import { PostgresEventStore } from '@pix/event-store';
import { enableInlineProjections, inlineOn } from '@pix/read-models';
import { createTestDatabase, type TestDatabase } from '@pix/testing';
import { chargesInReadModel } from '../../apps/api/src/access/admin/key-charges';
import { removeKey } from '../../apps/api/src/access/admin/operations';
import { LIVE_PROJECTIONS } from '../../apps/api/src/infrastructure/projections';
import { fetchToken, freePort, provisionAccess, startApiProcess, TEST_RECEIVER, type ApiProcess } from '../support/api-process';
import { validCobV } from '../support/api-harness';
import { cashIn, contractClient, officialPix } from '../support/cash-in-fixtures';
import { kafkaBrokers, lockKafka, PspCore } from '../support/kafka-client';
import { startNotifierProcess, stopChild, type NotifierProcess } from '../support/notifier-process';
import { Receiver, selfSignedCertificate } from '../support/receiver';

// A Pix key moves from one receiver to another while a cash-in paid before the move is still
// unread (consumers lagging on Kafka): the Pix is its former holder's, settled on that receiver's
// charge, and neither settles the new holder's charge of the same txid nor reaches its webhook
// (ADR 9). Production mode, real Kafka, real PostgreSQL.
jest.setTimeout(120_000);

const BROKERS = kafkaBrokers();
const KEY = '+5511977776666';
const LOJA_B = { id: 'lojab', nome: 'Loja B SA', cnpj: '12ABC34501DE35', logradouro: 'Rua B, 2', cidade: 'Campinas', uf: 'SP', cep: '13010000' };
const CLIENT_B = { clientId: 'lojab-client', secret: 'lojab-client-secret-not-for-production' };

if (!BROKERS) {
  describe('a key moved with a cash-in still unread', () => {
    console.warn('key-move-cash-in.int.ts NOT RUN: KAFKA_BROKERS is not set (npm test sets it; or start tools/kafka/kafka.js and export it)');
    it.skip('NOT RUN: no KAFKA_BROKERS set', () => undefined);
  });
} else {
  describe('a key moved with a cash-in still unread', () => {
    let unlock: (() => void) | undefined;
    let tls: ReturnType<typeof selfSignedCertificate> | undefined;
    let receiver: Receiver | undefined;
    let db: TestDatabase | undefined;
    let api: ApiProcess | undefined;
    let notifier: NotifierProcess | undefined;
    let psp: PspCore | undefined;

    beforeAll(async () => {
      unlock = await lockKafka(BROKERS, 600_000);
      tls = selfSignedCertificate();
      receiver = await Receiver.start({ tls });
      db = await createTestDatabase('key_move_cashin');
      api = await startApiProcess(db.url, await freePort(), { KAFKA_BROKERS: BROKERS.join(',') }, [KEY]);
      notifier = await startNotifierProcess({ DATABASE_URL: db.url, KAFKA_BROKERS: BROKERS.join(','), NOTIFIER_PORT: String(await freePort()), WEBHOOK_CA: tls.caPath });
      psp = await PspCore.connect(BROKERS);
    }, 720_000);

    afterAll(async () => {
      const steps = [() => psp?.disconnect(), () => notifier?.stop(), () => stopChild(api?.child), () => receiver?.close(), () => db?.drop()];
      for (const step of steps) await Promise.resolve(step()).catch((e) => console.error(e));
      tls?.remove();
      unlock?.();
    }, 60_000);

    it("settles the former holder's charge and tells the new holder nothing", async () => {
      const a = contractClient(api!.base, api!.headers());
      const txid = await a.charge(KEY);
      expect((await a.request('PUT', `/webhook/${encodeURIComponent(KEY)}`, { webhookUrl: `${receiver!.url}/a` })).status).toBe(200);
      const paidAt = new Date();

      // The operator moves the key to loja B, which registers its webhook and a charge of the same txid.
      const pool = new Pool({ connectionString: db!.url, max: 2 });
      const store = await PostgresEventStore.create({ pool, listen: false });
      // As `npm run admin` does: the removal of A's charge reaches the read models at once.
      await enableInlineProjections(store, pool, inlineOn(store, LIVE_PROJECTIONS));
      try {
        await removeKey({ store, charges: chargesInReadModel(pool) }, TEST_RECEIVER.id, KEY);
      } finally {
        await store.close();
        await pool.end();
      }
      await provisionAccess(db!.url, { receiver: LOJA_B, chaves: [KEY], client: CLIENT_B });
      const b = contractClient(api!.base, { authorization: `Bearer ${await fetchToken(api!.base.replace(/\/v2$/, ''), CLIENT_B.clientId, CLIENT_B.secret)}` });
      expect((await b.request('PUT', `/webhook/${encodeURIComponent(KEY)}`, { webhookUrl: `${receiver!.url}/b` })).status).toBe(200);
      expect((await b.request('PUT', `/cobv/${txid}`, validCobV({ chave: KEY, valor: { original: '123.45' } }))).status).toBe(201);

      // Only now do the consumers read the cash-in paid to loja A before the move; then one paid to B.
      const before = { ...cashIn(txid, KEY), horario: paidAt.toISOString() };
      await psp!.publish(before);
      const txidB = await b.charge(KEY);
      const after = cashIn(txidB, KEY);
      await psp!.publish(after);

      // Same key, same partition: once B's Pix is settled and delivered, A's was read before it.
      expect((await b.concluded(txidB)).pix).toEqual([officialPix(after)]);
      await receiver!.waitUntil(() => receiver!.forEndToEndId(after.endToEndId).length === 1, 30_000, "loja B's Pix at /b/pix");
      expect(receiver!.forEndToEndId(after.endToEndId).map((r) => r.path)).toEqual(['/b/pix']);

      expect(receiver!.forEndToEndId(before.endToEndId).map((r) => r.path)).toEqual([]);
      expect((await b.request('GET', `/cobv/${txid}`)).body).toMatchObject({ status: 'ATIVA' });
      expect((await b.request('GET', `/pix/${before.endToEndId}`)).status).toBe(404);
      expect((await a.concluded(txid, 5_000)).pix).toEqual([officialPix(before)]);
      expect((await a.request('GET', `/pix/${before.endToEndId}`)).status).toBe(200);
    });
  });
}
