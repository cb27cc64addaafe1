import { createHash } from 'node:crypto';
import type { AppendCondition, EventToAppend, RecordedEvent } from '../port';

/** One row an append writes inline: the new document (null: delete) and its extracted columns. */
export interface InlineRow {
  id: string;
  doc: unknown;
  values: Record<string, unknown>;
  /** The row as the writer believes it is now; the whole append fails if it is not (see below). */
  guard?: { before: unknown };
}

/** A read model's rows written in the append's own statement, under its shared lock. */
export interface InlineTableWrite {
  /** Advisory lock name, taken shared here and exclusive by catch-up and replay switch-over. */
  lock: string;
  table: string;
  columns: { name: string; type: string }[];
  rows: InlineRow[];
}

/** What the adapter offers a projector to plan with. */
export interface InlinePlanInput {
  streamId: string;
  /** The events as they will be recorded (position and time are not known before the insert). */
  events: Pick<RecordedEvent, 'id' | 'streamId' | 'type' | 'data' | 'metadata'>[];
  prior?: readonly RecordedEvent[];
  /** True on a first attempt: a row not owned by the stream may be assumed from the stream alone (checked by its guard). */
  optimistic: boolean;
  read(table: string, ids: string[]): Promise<Map<string, unknown>>;
}

/**
 * Computes the rows an append changes. Rows whose every event comes from the appending stream
 * are exact without a guard (the revision check serialises the stream); any other row carries
 * the value it was computed from, and a concurrent change to it fails the append, which is then
 * planned again from fresh reads.
 */
export interface InlineProjector {
  plan(input: InlinePlanInput): Promise<InlineTableWrite[]>;
}

/** Raised by the statement when a guarded row moved under it (PostgreSQL `invalid_text_representation`). */
export const isInlineConflict = (error: any) => error?.code === '22P02' && String(error.message).includes('inline projection conflict');

/** Raised by the statement when an append condition did not hold (same mechanism). */
export const isConditionFailure = (error: any) => error?.code === '22P02' && String(error.message).includes('append condition failed');

export const toPendingEvents = (streamId: string, events: EventToAppend[]) =>
  events.map((e) => ({ id: e.id, streamId, type: e.type, data: e.data, metadata: e.metadata ?? {} }));

export const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain SQL identifier: ${name}`);
  return name;
};

/**
 * The append and its read-model writes as ONE statement (one round trip, atomic without BEGIN
 * or COMMIT): the shared locks first, the append conditions, then the insert (still the first
 * write of the transaction), then per table an upsert and a delete that run only if the insert
 * did. A row whose guard does not hold is not written, and the final count turns that into an
 * error that undoes everything; a condition that does not hold fails the statement before the
 * insert. Nothing inserted answers one row with the stream's revision and how many of the
 * events' ids are taken (none: a plain conflict, told without another round trip). Parameters: $1 stream, $2 events, $3 expected, $4 lock names, $5 expected row count,
 * then one JSON array per table, then each condition's own parameters.
 */
export function inlineAppendSql(writes: InlineTableWrite[], conditions: readonly AppendCondition[] = []): { name: string; text: string } {
  // Built once per shape (which tables, which columns, which conditions): a profile showed it on every append.
  const shape = inlineShape(writes, conditions);
  let statement = statements.get(shape);
  if (!statement) statements.set(shape, (statement = buildInlineAppendSql(writes, conditions)));
  return statement;
}

const statements = new Map<string, { name: string; text: string }>();

/** Which tables, which columns, which conditions: appends of one shape share a statement. */
export const inlineShape = (writes: InlineTableWrite[], conditions: readonly AppendCondition[]) =>
  writes.map(tableShape).join(';') + conditions.map((c) => `|${c.sql}`).join('');

/** A table write's part of the shape, kept per columns array (projectors hand the same one to every append). */
function tableShape(w: InlineTableWrite): string {
  let shape = tableShapes.get(w.columns);
  if (shape === undefined) tableShapes.set(w.columns, (shape = `(${w.columns.map((c) => `${c.name} ${c.type}`).join(',')})`));
  return w.table + shape;
}
const tableShapes = new WeakMap<InlineTableWrite['columns'], string>();

/** A condition's `$k` renumbered after the parameters before it. */
function renumber(sql: string, offset: number): string {
  return sql.replace(/\$(\d+)/g, (_, k: string) => `$${offset + Number(k)}`);
}

/**
 * Per table: the rows to write (`r`), the upsert (`u`) and the delete (`d`), each row written
 * only if its guard holds. `source` filters `r` to the rows of appends that inserted; `extra`
 * names columns the table's JSON carries besides the row (the group statement's item number).
 */
export function tableWriteCtes(writes: InlineTableWrite[], firstParam: number, source: string, extra = ''): string[] {
  return writes.map((w, i) => {
    const t = ident(w.table);
    const cols = w.columns.map((c) => ident(c.name));
    const record = [extra, 'id text', 'doc jsonb', 'guarded boolean', 'before jsonb', ...w.columns.map((c) => `${ident(c.name)} ${c.type}`)].filter(Boolean).join(', ');
    const sets = ['doc', ...cols].map((c) => `${c} = EXCLUDED.${c}`).join(', ');
    const guard = (row: string) => `(NOT ${row}.guarded OR t.doc IS NOT DISTINCT FROM ${row}.before)`;
    return `r${i} AS (SELECT * FROM jsonb_to_recordset($${firstParam + i}::jsonb) AS r(${record}) WHERE ${source}),
u${i} AS (INSERT INTO ${t} AS t (id, doc${cols.map((c) => `, ${c}`).join('')}) SELECT id, doc${cols.map((c) => `, ${c}`).join('')} FROM r${i} WHERE doc IS NOT NULL AND doc <> 'null'::jsonb
  ON CONFLICT (id) DO UPDATE SET ${sets} WHERE EXISTS (SELECT 1 FROM r${i} g WHERE g.id = t.id AND ${guard('g')}) RETURNING 1),
d${i} AS (DELETE FROM ${t} AS t USING r${i} g WHERE t.id = g.id AND (g.doc IS NULL OR g.doc = 'null'::jsonb) AND ${guard('g')} RETURNING 1)`;
  });
}

/** Every row the table CTEs wrote, one line each (compared with the rows planned). */
export const writtenRows = (writes: InlineTableWrite[]) =>
  writes.length > 0 ? writes.map((_, i) => `SELECT 1 FROM u${i} UNION ALL SELECT 1 FROM d${i}`).join(' UNION ALL ') : 'SELECT 1 WHERE false';

function buildInlineAppendSql(writes: InlineTableWrite[], conditions: readonly AppendCondition[]): { name: string; text: string } {
  const ctes = tableWriteCtes(writes, 6, 'EXISTS (SELECT 1 FROM ins)');
  const written = writtenRows(writes);
  let offset = 5 + writes.length;
  const checks = conditions.map((c) => {
    const sql = `(${renumber(c.sql, offset)})`;
    offset += c.params.length;
    return sql;
  });
  // The failure message depends on a row count, so the planner cannot fold it into an error at
  // plan time; the insert reads `failed`, so the planner cannot drop the check either.
  const chk = checks.length > 0
    ? `chk AS (SELECT CASE WHEN n = 0 THEN 0 ELSE ('append condition failed: ' || n)::int END AS failed FROM (SELECT count(*) AS n FROM (VALUES ${checks.map((c) => `(${c})`).join(', ')}) v(ok) WHERE ok IS NOT TRUE) x),`
    : '';
  const text = `WITH lk AS (SELECT count(pg_advisory_xact_lock_shared(hashtext('projection:' || n))) AS n FROM unnest($4::text[]) AS n),
${chk}
cur AS (SELECT coalesce(max(stream_revision), -1) AS rev FROM es_events WHERE stream_id = $1),
ins AS (
INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
SELECT $1, cur.rev + e.ord, (e.v->>'id')::uuid, e.v->>'type', e.v->'data', coalesce(e.v->'metadata', '{}'::jsonb)
FROM lk, ${chk ? 'chk, ' : ''}cur, jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(v, ord)
WHERE ${chk ? 'chk.failed = 0 AND ' : ''}CASE $3::text
        WHEN 'any' THEN true
        WHEN 'no_stream' THEN cur.rev = -1
        WHEN 'stream_exists' THEN cur.rev >= 0
        ELSE cur.rev = $3::bigint
      END
RETURNING global_position, transaction_id, stream_revision),
${ctes.map((c) => `${c},
`).join('')}ok AS (SELECT ('inline projection conflict: ' || count(*))::int AS c FROM (${written}) w HAVING count(*) <> $5::int)
SELECT global_position::text, transaction_id::text, stream_revision::text, conflict, current_revision, ids_taken FROM (
  SELECT global_position, transaction_id, stream_revision, (SELECT c FROM ok) AS conflict, NULL::text AS current_revision, NULL::bigint AS ids_taken FROM ins
  UNION ALL
  SELECT NULL, NULL, NULL, NULL, cur.rev::text, (SELECT count(*) FROM es_events x, jsonb_array_elements($2::jsonb) e(v) WHERE x.event_id = (e.v->>'id')::uuid)
  FROM cur WHERE NOT EXISTS (SELECT 1 FROM ins)
) r ORDER BY r.stream_revision`;
  return { name: `es_append_inline_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`, text };
}

/**
 * A table's rows as the statement's JSON reads them, `k` naming the group statement's item.
 * Built by assignment: object spread here cost three times the JSON encoding (a profile).
 */
export const tableRows = (w: InlineTableWrite, k?: number) =>
  w.rows.map((r) => {
    const row: Record<string, unknown> = { k, id: r.id, doc: r.doc ?? null, guarded: r.guard !== undefined, before: r.guard?.before ?? null };
    for (const column in r.values) row[column] = r.values[column];
    return row;
  });

/** The statement's parameters after the first three. */
export function inlineAppendParams(writes: InlineTableWrite[], conditions: readonly AppendCondition[] = []): unknown[] {
  const locks = [...new Set(writes.map((w) => w.lock))];
  const count = writes.reduce((n, w) => n + w.rows.length, 0);
  const tables = writes.map((w) => JSON.stringify(tableRows(w)));
  return [locks, count, ...tables, ...conditions.flatMap((c) => c.params)];
}
