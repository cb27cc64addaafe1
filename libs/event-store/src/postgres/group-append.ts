import { createHash } from 'node:crypto';
import type { AppendCondition } from '../port';
import { inlineShape, tableRows, tableWriteCtes, writtenRows, type InlineTableWrite } from './inline';

/**
 * Appends of one shape (same read-model tables, same conditions) at exact revisions (a new
 * stream is revision -1) as ONE statement: group commit. Each item is its own append: it inserts
 * only if its stream is at the revision it expects and its conditions hold, and its rows are written only if it inserted; items that do not insert are
 * answered like the single statement's "nothing inserted" row. A guard that fails, or a
 * concurrent writer of one of the streams, fails the whole statement, which then changed
 * nothing: the caller runs each item alone. Parameters: $1 the items (k, stream, events,
 * condition parameters, expected revision), $2 lock names, then one JSON array per table whose rows carry `k`.
 */
export function groupAppendSql(writes: InlineTableWrite[], conditions: readonly AppendCondition[]): { name: string; text: string } {
  const shape = inlineShape(writes, conditions);
  let statement = statements.get(shape);
  if (!statement) statements.set(shape, (statement = build(writes, conditions)));
  return statement;
}

const statements = new Map<string, { name: string; text: string }>();

/** Whether an append's conditions can ride a group statement (their parameters become JSON text). */
export const groupable = (conditions: readonly AppendCondition[]) => conditions.every((c) => c.params.every((p) => typeof p === 'string'));

export interface GroupItem {
  streamId: string;
  /** The revision the stream must be at (-1: it must not exist). */
  expected: bigint;
  /** The events, already JSON (as the single statement's $2). */
  payload: string;
  writes: InlineTableWrite[];
  conditions: readonly AppendCondition[];
}

export function groupAppendParams(items: GroupItem[]): unknown[] {
  const json = items
    .map((item, k) => `{"k":${k},"stream":${JSON.stringify(item.streamId)},"events":${item.payload},"cp":${JSON.stringify(item.conditions.flatMap((c) => c.params))},"e":${item.expected}}`)
    .join(',');
  const first = items[0].writes;
  const locks = [...new Set(first.map((w) => w.lock))];
  const tables = first.map((_, t) => JSON.stringify(items.flatMap((item, k) => tableRows(item.writes[t], k))));
  return [`[${json}]`, locks, ...tables];
}

function build(writes: InlineTableWrite[], conditions: readonly AppendCondition[]): { name: string; text: string } {
  let offset = 0;
  // A condition's `$n` is its item's n-th parameter, as text.
  const checks = conditions.map((c) => {
    const sql = c.sql.replace(/\$(\d+)/g, (_, n: string) => `(it.cp->>${offset + Number(n) - 1})`);
    offset += c.params.length;
    return `(${sql})`;
  });
  const ctes = tableWriteCtes(writes, 3, 'r.k IN (SELECT k FROM done)', 'k int');
  const planned = writes.length > 0 ? writes.map((_, i) => `(SELECT count(*) FROM r${i})`).join(' + ') : '0';
  const text = `WITH lk AS (SELECT count(pg_advisory_xact_lock_shared(hashtext('projection:' || n))) AS n FROM unnest($2::text[]) AS n),
it AS (SELECT i.* FROM lk, jsonb_to_recordset($1::jsonb) AS i(k int, stream text, events jsonb, cp jsonb, e bigint)),
st AS MATERIALIZED (
  SELECT it.k, it.stream, it.events, it.e,
    (SELECT coalesce(max(x.stream_revision), -1) FROM es_events x WHERE x.stream_id = it.stream) AS rev,
    ${checks.length > 0 ? checks.join(' AND ') : 'true'} AS cond_ok
  FROM it),
ins AS (
INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
SELECT st.stream, st.rev + e.ord, (e.v->>'id')::uuid, e.v->>'type', e.v->'data', coalesce(e.v->'metadata', '{}'::jsonb)
FROM st, jsonb_array_elements(st.events) WITH ORDINALITY AS e(v, ord)
WHERE st.rev = st.e AND st.cond_ok IS TRUE
ORDER BY st.stream, e.ord
RETURNING stream_id, global_position, transaction_id, stream_revision),
done AS (SELECT st.k FROM st WHERE EXISTS (SELECT 1 FROM ins WHERE ins.stream_id = st.stream)),
${ctes.map((c) => `${c},
`).join('')}ok AS (SELECT ('inline projection conflict: ' || count(*))::int AS c FROM (${writtenRows(writes)}) w HAVING count(*) <> ${planned})
SELECT st.k, ins.global_position::text, ins.transaction_id::text, ins.stream_revision::text, (SELECT c FROM ok) AS conflict, st.rev::text AS current_revision,
  st.cond_ok IS TRUE AS cond_ok,
  CASE WHEN ins.stream_id IS NULL THEN (SELECT count(*) FROM es_events x, jsonb_array_elements(st.events) e(v) WHERE x.event_id = (e.v->>'id')::uuid) END AS ids_taken
FROM st LEFT JOIN ins ON ins.stream_id = st.stream
ORDER BY st.k, ins.stream_revision`;
  return { name: `es_append_group_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`, text };
}
