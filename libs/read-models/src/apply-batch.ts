import type { PoolClient } from 'pg';
import type { DomainEvent, RecordedEvent } from '@pix/event-store';
import { keysOf, relevantTo, type Projection } from './projection';

/**
 * Applies events to a projection's table inside the caller's transaction: loads each touched
 * row once, folds the events over it, writes each row once.
 */
export async function applyEvents<Row, E extends DomainEvent>(
  client: PoolClient,
  projection: Projection<Row, E>,
  table: string,
  events: RecordedEvent[],
  /** When the caller knows every key the table holds (a rebuild from empty), only those are read back. */
  written?: Set<string>,
): Promise<number> {
  const relevant = relevantTo(projection, events);
  if (relevant.length === 0) return 0;
  const keys = [...new Set(relevant.flatMap((e) => keysOf(projection, e)))];
  const toLoad = written ? keys.filter((k) => written.has(k)) : keys;
  const { rows } = toLoad.length === 0 ? { rows: [] as { id: string; doc: Row }[] } : await client.query<{ id: string; doc: Row }>(`SELECT id, doc FROM ${table} WHERE id = ANY($1::text[])`, [toLoad]);
  const current = new Map<string, Row | null>(keys.map((k) => [k, null]));
  for (const r of rows) current.set(r.id, r.doc);
  for (const event of relevant)
    for (const key of keysOf(projection, event)) current.set(key, projection.apply(current.get(key) ?? null, event, key));
  const toDelete = keys.filter((k) => current.get(k) === null);
  if (toDelete.length > 0) await client.query(`DELETE FROM ${table} WHERE id = ANY($1::text[])`, [toDelete]);
  const toSave = keys.filter((k) => current.get(k) !== null);
  // Rebuilding from empty, a key never written is a plain INSERT (no conflict check per row).
  const fresh = written ? toSave.filter((k) => !written.has(k)) : [];
  const existing = written ? toSave.filter((k) => written.has(k)) : toSave;
  if (fresh.length > 0) await writeRows(client, projection, table, fresh.map((k) => [k, current.get(k)!] as const), false);
  if (existing.length > 0) await writeRows(client, projection, table, existing.map((k) => [k, current.get(k)!] as const), true);
  if (written) {
    for (const k of toSave) written.add(k);
    for (const k of toDelete) written.delete(k);
  }
  return relevant.length;
}

/**
 * All rows in one statement with ONE parameter (a JSON array unpacked by jsonb_to_recordset):
 * thousands of bind parameters cost more to encode and parse than the rows themselves.
 */
async function writeRows<Row, E extends DomainEvent>(client: PoolClient, projection: Projection<Row, E>, table: string, rows: (readonly [string, Row])[], upsert: boolean): Promise<void> {
  const columns = projection.columns.map((c) => ({ name: c.name, type: c.sqlType.replace(/\s+NOT NULL\s*$/i, '') }));
  const names = ['id', 'doc', ...columns.map((c) => c.name)];
  const record = ['id text', 'doc jsonb', ...columns.map((c) => `${c.name} ${c.type}`)].join(', ');
  const payload = rows.map(([id, row]) => {
    const out: Record<string, unknown> = { id, doc: row };
    for (const c of projection.columns) out[c.name] = c.value(row) ?? null;
    return out;
  });
  const updates = names.slice(1).map((n) => `${n} = EXCLUDED.${n}`).join(', ');
  await client.query(
    `INSERT INTO ${table} (${names.join(', ')}) SELECT ${names.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS r(${record})${upsert ? ` ON CONFLICT (id) DO UPDATE SET ${updates}` : ''}`,
    [JSON.stringify(payload)],
  );
}
