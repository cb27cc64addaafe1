import type { RecordedEvent } from '@pix/event-store';

/**
 * What a projection sees of an event: inline (ADR 14) it runs before the insert, when the
 * event's global position and recording time do not exist yet.
 */
export type ProjectedEvent = Pick<RecordedEvent, 'id' | 'streamId' | 'type' | 'data' | 'metadata'>;

/** A column copied out of the row document, so queries can filter and index on it. */
export interface ProjectedColumn<Row> {
  name: string;
  sqlType: string;
  value(row: Row): unknown;
  indexed?: boolean;
}

/**
 * A projection is a pure function of (row, event): `apply` gets the current row for the event's
 * key (or null) and returns the new row (or null to delete it). Storage, batching and
 * checkpoints are the runner's business.
 */
export interface Projection<Row> {
  name: string;
  /** Table the live read model is served from. */
  table: string;
  canHandle: readonly string[];
  /** The row(s) an event touches: one event may fan out (a batch creates a row per request). */
  keyOf(event: ProjectedEvent): string | string[];
  apply(row: Row | null, event: ProjectedEvent, key: string): Row | null;
  columns: ProjectedColumn<Row>[];
  /** Indexes over several columns, e.g. (recebedor_id, criacao) for a tenant's listing. */
  indexes?: ProjectedIndex[];
  /**
   * Applied in the append's own transaction where the store can (PostgreSQL; ADR 14), so the row
   * is visible when the write returns; asynchronously elsewhere. `stream`: every event of a row
   * comes from one stream (the row is exact from that stream's events); `shared`: events of
   * several streams touch a row (it is read and guarded).
   */
  inline?: 'stream' | 'shared';
}

export interface ProjectedIndex {
  /** Suffix of the index name: `{table}_{name}_idx`. */
  name: string;
  columns: string[];
}

export const handles = <Row>(projection: Projection<Row>, event: ProjectedEvent) => projection.canHandle.includes(event.type);

export const keysOf = <Row>(projection: Projection<Row>, event: ProjectedEvent): string[] => {
  const keys = projection.keyOf(event);
  return Array.isArray(keys) ? keys : [keys];
};

/** DDL for a projection's table: key, document, and the extracted columns (with their indexes unless told not to). */
export function tableDdl(projection: Projection<unknown>, table: string, options: { indexes?: boolean } = {}): string {
  const columns = projection.columns.map((c) => `, ${c.name} ${c.sqlType}`).join('');
  const create = `CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, doc jsonb NOT NULL${columns});`;
  return options.indexes === false ? create : `${create}\n${indexDdl(projection, table)}`;
}

/** Every secondary index of a projection by name suffix and columns. */
export function indexesOf(projection: Projection<unknown>): ProjectedIndex[] {
  return [...projection.columns.filter((c) => c.indexed).map((c) => ({ name: c.name, columns: [c.name] })), ...(projection.indexes ?? [])];
}

/** Secondary indexes; a rebuild creates them once, after loading, which is far cheaper than row by row. */
export function indexDdl(projection: Projection<unknown>, table: string): string {
  return indexesOf(projection)
    .map((i) => `CREATE INDEX IF NOT EXISTS ${table}_${i.name}_idx ON ${table} (${i.columns.join(', ')});`)
    .join('\n');
}

export const CHECKPOINTS_DDL = `
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name text PRIMARY KEY,
  position text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);`;
