import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { migrate, type Migration } from '@pix/event-store';
import { CLAIM_FUNCTION_DDL } from './claim-sql';
import { ENQUEUE_FUNCTION_DDL } from './enqueue-sql';
import { REPAIR_FUNCTION_DDL } from './due-keys-sql';
import { RECORD_FUNCTION_DDL } from './record-attempts-sql';

/**
 * One row per cash-in notification (keyed by the endToEndId-derived UUID) plus an append-only
 * attempt log. Rows are never deleted: `dead` and `cancelled` stay for audit and resend.
 * `body` is the row's own `{"pix":[one]}`. `batch_id` is the delivery (the `webhook-id`) a row
 * belongs to once claimed: its own id when it goes alone, else a `webhook_batch` row holding the
 * exact bytes of the multi-item body, so retries and signatures cover identical bytes.
 */
export const OUTBOX_DDL = `
CREATE TABLE IF NOT EXISTS webhook_outbox (
  id              uuid        PRIMARY KEY,
  end_to_end_id   text        NOT NULL UNIQUE,
  chave           text        NOT NULL,
  txid            text        NOT NULL,
  body            text        NOT NULL,
  status          text        NOT NULL CHECK (status IN ('pending', 'delivered', 'dead', 'cancelled')),
  attempt_count   integer     NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  lease_until     timestamptz,
  lease_token     uuid,
  pending_since   timestamptz NOT NULL,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  delivered_at    timestamptz,
  last_error      text,
  reason          text
);
CREATE INDEX IF NOT EXISTS webhook_outbox_due_idx ON webhook_outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS webhook_outbox_key_due_idx ON webhook_outbox (chave, next_attempt_at) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS webhook_outbox_pending_since_idx ON webhook_outbox (pending_since) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS webhook_outbox_dead_idx ON webhook_outbox (created_at) WHERE status = 'dead';
CREATE INDEX IF NOT EXISTS webhook_outbox_created_idx ON webhook_outbox (created_at);
CREATE TABLE IF NOT EXISTS webhook_outbox_attempts (
  seq             bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  notification_id uuid        NOT NULL REFERENCES webhook_outbox (id),
  attempt         integer     NOT NULL,
  attempted_at    timestamptz NOT NULL,
  url             text,
  status_code     integer,
  latency_ms      integer     NOT NULL,
  error           text,
  outcome         text        NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_outbox_attempts_notification_idx ON webhook_outbox_attempts (notification_id, seq);
`;

/** Batched callbacks (ADR 15): a delivery id per row, the exact bytes of multi-item bodies. */
export const BATCH_DDL = `
ALTER TABLE webhook_outbox ADD COLUMN IF NOT EXISTS batch_id uuid;
ALTER TABLE webhook_outbox_attempts ADD COLUMN IF NOT EXISTS delivery_id uuid;
ALTER TABLE webhook_outbox_attempts ADD COLUMN IF NOT EXISTS batch_size integer;
CREATE INDEX IF NOT EXISTS webhook_outbox_batch_idx ON webhook_outbox (batch_id) WHERE status = 'pending';
CREATE TABLE IF NOT EXISTS webhook_batch (
  id         uuid        PRIMARY KEY,
  chave      text        NOT NULL,
  body       text        NOT NULL,
  item_count integer     NOT NULL,
  created_at timestamptz NOT NULL
);
-- Rows that were retried before batching existed keep going alone, under their own id.
UPDATE webhook_outbox SET batch_id = id WHERE status = 'pending' AND batch_id IS NULL AND attempt_count > 0;
`;

/**
 * Claims find keys and their leases through indexes (ADR 15): one key's backlog no longer makes
 * every claim, for every key, read all of it.
 */
export const CLAIM_INDEX_DDL = `
CREATE INDEX IF NOT EXISTS webhook_outbox_leased_idx ON webhook_outbox (chave, lease_until) WHERE status = 'pending' AND lease_until IS NOT NULL;
`;

/**
 * No statistics on `status` (ADR 15): it flips from pending to delivered within seconds, so what
 * ANALYZE saw is wrong by the time a plan uses it, and wrong the way that hurts (a burst, or a
 * receiver's backlog, arriving after a quiet spell: "hardly anything is pending"). The planner
 * then walked a whole backlog through a partial index to claim 8 rows (150 ms with 50,000
 * pending, 3.5 ms without the statistic). The same-type ALTER drops what ANALYZE already stored
 * (SET STATISTICS 0 alone keeps it) and rebuilds only the indexes on `status`, all partial.
 */
export const STATUS_STATISTICS_DDL = `
ALTER TABLE webhook_outbox ALTER COLUMN status SET STATISTICS 0, ALTER COLUMN status TYPE text;
`;

/**
 * Keys with something that may be due (ADR 15): one row per key, `due_at` never later than the
 * earliest schedule of its pending rows. A claim reads the keys due now from here instead of
 * walking every pending key (thousands of keys waiting between retries made every claim slow).
 * Storing and resending lower `due_at` in their own transaction; claims raise it to the key's
 * real next schedule, or drop the key, and a periodic repair re-adds any key missing.
 */
export const DUE_KEYS_DDL = `
CREATE TABLE IF NOT EXISTS webhook_due_keys (
  chave   text        PRIMARY KEY,
  due_at  timestamptz NOT NULL,
  version bigint      NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS webhook_due_keys_due_idx ON webhook_due_keys (due_at);
SELECT webhook_repair_due_keys();
`;

/**
 * The index on pending rows by next attempt alone served the claim before claims went key by key
 * (webhook_outbox_key_due_idx, then webhook_due_keys): no statement uses it now, and every stored
 * notification and every claim of one (an update that moves the row) still wrote to it.
 */
export const DROP_UNUSED_DUE_INDEX_DDL = `DROP INDEX IF EXISTS webhook_outbox_due_idx`;

/**
 * A key that leaves its receiver (`admin key remove`) retires its notifications: pending ones are
 * cancelled and none can be resent, since the next owner's webhook would receive them (a key's
 * webhook is looked up by the key alone). Nullable without a default: instant on any table size.
 */
export const RETIRED_DDL = `ALTER TABLE webhook_outbox ADD COLUMN IF NOT EXISTS retired_at timestamptz`;

/**
 * The endToEndIds whose first copy the intake read but did not notify (ADR 7): a later copy with
 * other content (a PSP core's bug) must not be notified when settlement ignored it. Narrow, so the
 * probe each stored notification makes stays cheap. No retention yet (ADR 7 says when to add it).
 */
export const INTAKE_SKIPPED_DDL = `
CREATE TABLE IF NOT EXISTS webhook_intake_skipped (
  end_to_end_id text        PRIMARY KEY,
  seen_at       timestamptz NOT NULL DEFAULT now()
)`;

/**
 * Each resend that starts a new cycle (attempts numbered from 1 again, ADR 15's schedule index),
 * with the attempt log's last seq for the notification then: an attempt's `resend` is how many
 * resends came before it in the log's own order (no clocks compared). Written by operators' resends
 * only, never on the delivery path.
 */
export const RESENDS_DDL = `
CREATE TABLE IF NOT EXISTS webhook_outbox_resends (
  notification_id uuid        NOT NULL,
  after_seq       bigint      NOT NULL,
  resent_at       timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_outbox_resends_notification_idx ON webhook_outbox_resends (notification_id, after_seq)`;

/**
 * The correlation id of the request that published the cash-in (ADR 17: the sandbox payer's, or
 * a Kafka message's `x-correlation-id`), named on every delivery line. Nullable, no default: instant.
 */
export const CORRELATION_ID_DDL = `ALTER TABLE webhook_outbox ADD COLUMN IF NOT EXISTS correlation_id text`;

/**
 * The worker a lease belongs to (lease-owner.ts): a lease whose worker's session has ended is
 * ended early. Written with every lease and left behind when the lease ends (only rows leased now
 * are read). Nullable without a default: instant on any table size.
 */
export const LEASE_OWNER_DDL = `ALTER TABLE webhook_outbox ADD COLUMN IF NOT EXISTS lease_owner int`;

/** The outbox tables, then batching, as versioned start-up migrations under the one schema lock. */
export const OUTBOX_MIGRATIONS: readonly Migration[] = [
  { id: '0003-webhook-outbox', up: async (client) => void (await client.query(OUTBOX_DDL)) },
  { id: '0004-webhook-batches', up: async (client) => void (await client.query(BATCH_DDL)) },
  { id: '0005-webhook-claim-index', up: async (client) => void (await client.query(CLAIM_INDEX_DDL)) },
  // Before the functions that write it, which follow whenever their text changes.
  { id: '0019-webhook-outbox-lease-owner', up: async (client) => void (await client.query(LEASE_OWNER_DDL)) },
  // One id per version of the function: a changed body is applied once, on the first start with it.
  { id: `0006-webhook-claim-function-${versionOf(CLAIM_FUNCTION_DDL)}`, up: async (client) => void (await client.query(CLAIM_FUNCTION_DDL)) },
  { id: `0007-webhook-enqueue-function-${versionOf(ENQUEUE_FUNCTION_DDL)}`, up: async (client) => void (await client.query(ENQUEUE_FUNCTION_DDL)) },
  { id: '0008-webhook-outbox-status-without-statistics', up: async (client) => void (await client.query(STATUS_STATISTICS_DDL)) },
  { id: `0009-webhook-repair-function-${versionOf(REPAIR_FUNCTION_DDL)}`, up: async (client) => void (await client.query(REPAIR_FUNCTION_DDL)) },
  { id: '0010-webhook-due-keys', up: async (client) => void (await client.query(DUE_KEYS_DDL)) },
  { id: '0012-webhook-outbox-without-unused-due-index', up: async (client) => void (await client.query(DROP_UNUSED_DUE_INDEX_DDL)) },
  { id: `0013-webhook-record-function-${versionOf(RECORD_FUNCTION_DDL)}`, up: async (client) => void (await client.query(RECORD_FUNCTION_DDL)) },
  { id: '0014-webhook-outbox-retired', up: async (client) => void (await client.query(RETIRED_DDL)) },
  { id: '0015-webhook-intake-skipped', up: async (client) => void (await client.query(INTAKE_SKIPPED_DDL)) },
  // Rows arrive in seen_at order: a BRIN index finds the old ones for pruning at almost no cost per insert.
  { id: '0016-webhook-intake-skipped-seen-at', up: async (client) => void (await client.query('CREATE INDEX IF NOT EXISTS webhook_intake_skipped_seen_at_brin ON webhook_intake_skipped USING brin (seen_at)')) },
  { id: '0017-webhook-outbox-resends', up: async (client) => void (await client.query(RESENDS_DDL)) },
  { id: '0018-webhook-outbox-correlation-id', up: async (client) => void (await client.query(CORRELATION_ID_DDL)) },
];

function versionOf(ddl: string): string {
  return createHash('sha1').update(ddl).digest('hex').slice(0, 12);
}

export async function ensureOutboxSchema(pool: Pool): Promise<void> {
  await migrate(pool, OUTBOX_MIGRATIONS);
}

/**
 * Every delivery leaves dead row versions in webhook_outbox (stored, leased, finished: each a new
 * version) and in webhook_due_keys, and only VACUUM takes them away. On a server running without
 * autovacuum (as a CI machine's PostgreSQL was seen to) both grow until claims slow down: workers
 * say so at start rather than weeks later.
 */
export async function autovacuumWarning(pool: Pool): Promise<string | undefined> {
  const { rows } = await pool.query<{ on: boolean }>(`SELECT current_setting('autovacuum')::bool AS on`);
  if (rows[0].on) return undefined;
  return 'webhook delivery: this PostgreSQL server runs with autovacuum off; webhook_outbox and webhook_due_keys gain dead rows with every delivery and claims slow down as they grow: turn autovacuum on, or VACUUM ANALYZE both tables regularly';
}

