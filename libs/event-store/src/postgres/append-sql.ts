/**
 * One statement, so the insert is the first (and only) write of its transaction: the
 * transaction id is taken at the append, which keeps per-stream order and global order in step.
 * The expected-revision check and the next revision come from the same snapshot; a concurrent
 * writer that got there first makes this insert fail on es_events_stream_revision_uq.
 */
export const APPEND_SQL = `
INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
SELECT $1, cur.rev + e.ord, (e.v->>'id')::uuid, e.v->>'type', e.v->'data', coalesce(e.v->'metadata', '{}'::jsonb)
FROM (SELECT coalesce(max(stream_revision), -1) AS rev FROM es_events WHERE stream_id = $1) cur,
     jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(v, ord)
WHERE CASE $3::text
        WHEN 'any' THEN true
        WHEN 'no_stream' THEN cur.rev = -1
        WHEN 'stream_exists' THEN cur.rev >= 0
        ELSE cur.rev = $3::bigint
      END
RETURNING global_position::text, transaction_id::text, stream_revision::text`;

export const CURRENT_REVISION_SQL = `SELECT max(stream_revision)::text AS rev FROM es_events WHERE stream_id = $1`;

export const EVENTS_BY_ID_SQL = `
SELECT event_id::text, stream_id, stream_revision::text, global_position::text, transaction_id::text
FROM es_events WHERE event_id = ANY($1::uuid[]) ORDER BY es_events.stream_revision`;

export const READ_STREAM_SQL = `
SELECT event_id::text, stream_id, stream_revision::text, event_type, data, metadata, recorded_at,
       global_position::text, transaction_id::text
FROM es_events WHERE stream_id = $1 ORDER BY es_events.stream_revision`;

/** One stream from a revision on (a snapshot's: see snapshots.ts). */
export const READ_STREAM_FROM_SQL = `
SELECT event_id::text, stream_id, stream_revision::text, event_type, data, metadata, recorded_at,
       global_position::text, transaction_id::text
FROM es_events WHERE stream_id = $1 AND stream_revision >= $2::bigint ORDER BY es_events.stream_revision`;

/** Several streams in one statement (stream-reads.ts), each in revision order. */
export const READ_STREAMS_SQL = `
SELECT event_id::text, stream_id, stream_revision::text, event_type, data, metadata, recorded_at,
       global_position::text, transaction_id::text
FROM es_events WHERE stream_id = ANY($1::text[]) ORDER BY stream_id, es_events.stream_revision`;

/** Only rows of transactions older than every running one: nothing can commit before them later. */
export const READ_ALL_SQL = `
SELECT event_id::text, stream_id, stream_revision::text, event_type, data, metadata, recorded_at,
       global_position::text, transaction_id::text
FROM es_events
WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
  AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
ORDER BY es_events.transaction_id, es_events.global_position
LIMIT $3`;

/** Every committed row, for a reader whose lock keeps out the writers it cares about (see ReadAllOptions.unfenced). */
export const READ_ALL_UNFENCED_SQL = `
SELECT event_id::text, stream_id, stream_revision::text, event_type, data, metadata, recorded_at,
       global_position::text, transaction_id::text
FROM es_events
WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
ORDER BY es_events.transaction_id, es_events.global_position
LIMIT $3`;
