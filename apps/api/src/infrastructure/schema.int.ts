import { EVENT_STORE_MIGRATIONS, migrate, PostgresEventStore } from '@pix/event-store';
import { ProjectionRunner } from '@pix/read-models';
import { createTestDatabase, testPool } from '@pix/testing';
import { ensureOutboxSchema, OUTBOX_MIGRATIONS } from '@pix/webhook-delivery';
import { SequenceLocationIds } from './location-ids';
import { LIVE_PROJECTIONS } from './projections';
import { migrateApiSchema } from './schema';

/** What one API instance does to its schema at start-up, in the order Nest runs it. */
async function startApiSchema(url: string): Promise<void> {
  const pool = testPool(url, 4);
  try {
    await migrateApiSchema(pool);
    const store = await PostgresEventStore.create({ pool, listen: false });
    await SequenceLocationIds.create(pool, 'pix.example.com');
    for (const p of LIVE_PROJECTIONS) await new ProjectionRunner(store, pool, p).prepare();
    await ensureOutboxSchema(pool); // local mode's notifier
    await store.close();
  } finally {
    await pool.end();
  }
}

/** And one notifier. */
async function startNotifierSchema(url: string): Promise<void> {
  const pool = testPool(url, 2);
  try {
    await migrate(pool, [...EVENT_STORE_MIGRATIONS, ...OUTBOX_MIGRATIONS]);
    await ensureOutboxSchema(pool);
  } finally {
    await pool.end();
  }
}

describe('start-up schema on an empty database', () => {
  it('four APIs and two notifiers starting together never fail, ten rounds in a row', async () => {
    for (let round = 0; round < 10; round++) {
      const db = await createTestDatabase('schema_race');
      try {
        const results = await Promise.allSettled([...Array.from({ length: 4 }, () => startApiSchema(db.url)), startNotifierSchema(db.url), startNotifierSchema(db.url)]);
        const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => String(r.reason));
        expect({ round, failures }).toEqual({ round, failures: [] });
        const check = testPool(db.url, 1);
        try {
          const { rows } = await check.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
          const versioned = (prefix: string) => OUTBOX_MIGRATIONS.find((m) => m.id.startsWith(prefix))!.id;
          expect(rows.map((r) => r.id)).toEqual([
            '0001-event-store',
            '0002-cobv-location-ids',
            '0003-webhook-outbox',
            '0004-webhook-batches',
            '0005-webhook-claim-index',
            versioned('0006-webhook-claim-function-'),
            versioned('0007-webhook-enqueue-function-'),
            '0008-webhook-outbox-status-without-statistics',
            versioned('0009-webhook-repair-function-'),
            '0010-webhook-due-keys',
            '0011-es-events-without-parallel-scans',
            '0012-webhook-outbox-without-unused-due-index',
            versioned('0013-webhook-record-function-'),
            '0014-webhook-outbox-retired',
            '0015-webhook-intake-skipped',
            '0016-webhook-intake-skipped-seen-at',
            '0017-webhook-outbox-resends',
            '0018-webhook-outbox-correlation-id',
            '0019-webhook-outbox-lease-owner',
            '0020-es-snapshots',
          ]);
          const indexes = await check.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'webhook_outbox' AND indexname = 'webhook_outbox_due_idx'`);
          expect(indexes.rows).toEqual([]);
          const status = await check.query(`SELECT attstattarget FROM pg_attribute WHERE attrelid = 'webhook_outbox'::regclass AND attname = 'status'`);
          expect(status.rows).toEqual([{ attstattarget: 0 }]);
          await expect(check.query(`SELECT 'webhook_claim_due'::regproc, 'webhook_enqueue'::regproc, 'webhook_repair_due_keys'::regproc, 'webhook_record_attempts'::regproc, 'webhook_due_keys'::regclass`)).resolves.toBeDefined();
          await expect(check.query(`SELECT nextval('cobv_location_id_seq')`)).resolves.toBeDefined();
        } finally {
          await check.end();
        }
      } finally {
        await db.drop();
      }
    }
  }, 120_000);
});
