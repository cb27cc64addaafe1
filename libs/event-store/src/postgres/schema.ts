import type { Migration } from './migrations';

/**
 * Event table. `transaction_id` is what makes catch-up reads safe under concurrent writers:
 * readers only take rows whose transaction is older than every transaction still running
 * (`pg_snapshot_xmin`), ordered by (transaction_id, global_position), so an event that commits
 * "late" with a smaller global_position is never skipped (no gap timeouts).
 */
export const EVENT_STORE_DDL = `
CREATE TABLE IF NOT EXISTS es_events (
  global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
  stream_id       text        NOT NULL,
  stream_revision bigint      NOT NULL,
  event_id        uuid        NOT NULL,
  event_type      text        NOT NULL,
  data            jsonb       NOT NULL,
  metadata        jsonb       NOT NULL DEFAULT '{}'::jsonb,
  recorded_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  CONSTRAINT es_events_stream_revision_uq UNIQUE (stream_id, stream_revision),
  CONSTRAINT es_events_event_id_uq UNIQUE (event_id)
);
CREATE INDEX IF NOT EXISTS es_events_global_order_idx ON es_events (transaction_id, global_position);
-- Wake-ups are sent after the append commits, not by a trigger: NOTIFY inside the transaction
-- takes a cluster-wide lock at commit and would serialise every append.
DROP TRIGGER IF EXISTS es_events_notify ON es_events;
DROP FUNCTION IF EXISTS es_events_notify();
`;

/**
 * No parallel plans on es_events. Every statement the store sends reads a few streams by key, and
 * a plan that starts parallel workers spends more in starting them than in the read. Without
 * statistics (a bulk load, autovacuum off or not yet run) the planner guessed 3,333 rows a stream
 * and sent the shared stream reads (`stream_id = ANY(...)`) to two workers: 13 ms a read instead
 * of 0.45, and in the cash-in bench the largest share of PostgreSQL's CPU. A table setting rather
 * than a session one, so it holds behind a connection pooler and for every client of the table.
 */
export const NO_PARALLEL_SCANS_DDL = `ALTER TABLE es_events SET (parallel_workers = 0)`;

/** The event store's tables as start-up migrations (see migrations.ts: one lock for all DDL). */
export const EVENT_STORE_MIGRATIONS: readonly Migration[] = [
  { id: '0001-event-store', up: async (client) => void (await client.query(EVENT_STORE_DDL)) },
  { id: '0011-es-events-without-parallel-scans', up: async (client) => void (await client.query(NO_PARALLEL_SCANS_DDL)) },
];

export const APPENDED_CHANNEL = 'es_events_appended';
