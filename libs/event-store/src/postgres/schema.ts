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

/** The event store's tables as a start-up migration (see migrations.ts: one lock for all DDL). */
export const EVENT_STORE_MIGRATION: Migration = {
  id: '0001-event-store',
  up: async (client) => {
    await client.query(EVENT_STORE_DDL);
  },
};

export const APPENDED_CHANNEL = 'es_events_appended';
