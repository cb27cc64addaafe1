import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, eventStoreContract, startTestEmbeddedPostgres, type TestDatabase } from '@pix/testing';
import { PostgresEventStore } from './postgres-event-store';
import { subscribeToAll } from '../subscribe';
import type { RecordedEvent } from '../port';

eventStoreContract('PostgreSQL server (127.0.0.1:5432)', async () => {
  const db = await createTestDatabase('es_contract');
  const store = await PostgresEventStore.create({ poolConfig: { connectionString: db.url, max: 20 } });
  return { store, cleanup: async () => { await store.close(); await db.drop(); } };
});

eventStoreContract('embedded PostgreSQL (local mode engine)', async () => {
  const pg = await startTestEmbeddedPostgres();
  const store = await PostgresEventStore.create({ poolConfig: { connectionString: pg.url, max: 20 } });
  return { store, cleanup: async () => { await store.close(); await pg.stop(); } };
});

describe('PostgreSQL event store under concurrent writers', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  beforeAll(async () => {
    db = await createTestDatabase('es_gap');
    store = await PostgresEventStore.create({ poolConfig: { connectionString: db.url } });
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  it('never lets a subscriber skip an event committed out of order', async () => {
    const seen: RecordedEvent[] = [];
    const sub = subscribeToAll(store, { batchSize: 100, idlePollMs: 50, handle: async (events) => void seen.push(...events) });
    try {
      // T1 appends first (smaller global_position) but stays open; T2 appends and commits.
      const t1 = new Client({ connectionString: db.url });
      await t1.connect();
      await t1.query('BEGIN');
      await t1.query(
        `INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data) VALUES ('slow', 0, $1, 'Slow', '{}')`,
        [randomUUID()],
      );
      await store.appendToStream('fast', [{ id: randomUUID(), type: 'Fast', data: {} }], 'no_stream');
      await new Promise((r) => setTimeout(r, 300));
      // While T1 is open the subscriber must not move past it: it has seen nothing yet.
      expect(seen.map((e) => e.type)).toEqual([]);
      await t1.query('COMMIT');
      await t1.end();
      for (const deadline = Date.now() + 5000; seen.length < 2 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      expect(seen.map((e) => e.type)).toEqual(['Slow', 'Fast']);
    } finally {
      await sub.stop();
    }
  });
});
