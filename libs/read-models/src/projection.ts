import type { DomainEvent, RecordedEvent } from '@pix/event-store';

/**
 * What a projection sees of an event: inline (ADR 14) it runs before the insert, when the
 * event's global position and recording time do not exist yet.
 */
export type ProjectedEvent<E extends DomainEvent = DomainEvent> = Pick<RecordedEvent, 'id' | 'streamId' | 'metadata'> & E;

/** A column copied out of the row document, so queries can filter and index on it. */
export interface ProjectedColumn<Row> {
  name: string;
  sqlType: string;
  value(row: Row): unknown;
  /**
   * `'when-set'`: only rows where the column is not null are indexed. For a column most rows
   * leave empty (a charge's batch, the CPF of a charge to a company) an equality lookup finds the
   * same rows, and a write of an empty one skips the index altogether.
   */
  indexed?: boolean | 'when-set';
}

/**
 * A projection is a pure function of (row, event): `apply` gets the current row for the event's
 * key (or null) and returns the new row (or null to delete it). Storage, batching and
 * checkpoints are the runner's business.
 */
export interface Projection<Row, E extends DomainEvent = DomainEvent> {
  name: string;
  /** Table the live read model is served from. */
  table: string;
  /** The event types it applies: `handles` narrows an event to E by them. */
  canHandle: readonly E['type'][];
  /** The row(s) an event touches: one event may fan out (a batch creates a row per request). */
  keyOf(event: ProjectedEvent<E>): string | string[];
  apply(row: Row | null, event: ProjectedEvent<E>, key: string): Row | null;
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
  /** A partial index's predicate. */
  where?: string;
  /** Suffix of an index this one takes over from (dropped once this one exists). */
  replaces?: string;
}

export function handles<Row, E extends DomainEvent>(projection: Projection<Row, E>, event: ProjectedEvent): event is ProjectedEvent<E> {
  return projection.canHandle.some((type) => type === event.type);
}

/** The events a projection applies, typed as its own. */
export function relevantTo<Row, E extends DomainEvent>(projection: Projection<Row, E>, events: readonly ProjectedEvent[]): ProjectedEvent<E>[] {
  const out: ProjectedEvent<E>[] = [];
  for (const event of events) if (handles(projection, event)) out.push(event);
  return out;
}

export const keysOf = <Row, E extends DomainEvent>(projection: Projection<Row, E>, event: ProjectedEvent<E>): string[] => {
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
  const own = projection.columns.flatMap((c): ProjectedIndex[] => {
    if (c.indexed === 'when-set') return [{ name: `${c.name}_set`, columns: [c.name], where: `${c.name} IS NOT NULL`, replaces: c.name }];
    return c.indexed ? [{ name: c.name, columns: [c.name] }] : [];
  });
  return [...own, ...(projection.indexes ?? [])];
}

/** Secondary indexes; a rebuild creates them once, after loading, which is far cheaper than row by row. */
export function indexDdl(projection: Projection<unknown>, table: string): string {
  return indexesOf(projection)
    .map((i) => {
      const create = `CREATE INDEX IF NOT EXISTS ${table}_${i.name}_idx ON ${table} (${i.columns.join(', ')})${i.where ? ` WHERE ${i.where}` : ''};`;
      // A table made by an earlier version has the index this one replaces: built first, then dropped.
      return i.replaces ? `${create}\nDROP INDEX IF EXISTS ${table}_${i.replaces}_idx;` : create;
    })
    .join('\n');
}

export const CHECKPOINTS_DDL = `
CREATE TABLE IF NOT EXISTS projection_checkpoints (
  name text PRIMARY KEY,
  position text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);`;
