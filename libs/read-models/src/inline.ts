import type { Pool } from 'pg';
import {
  inTransaction,
  type EventStore,
  type InlinePlanInput,
  type InlineProjector,
  type InlineRow,
  type InlineTableWrite,
  type PostgresEventStore,
} from '@pix/event-store';
import { applyEvents } from './apply-batch';
import { keysOf, relevantTo, type ProjectedEvent, type Projection } from './projection';
import { INLINE_CHECKPOINT, projectionLockSql, readCheckpoint, writeCheckpoint } from './projection-runner';

export { INLINE_CHECKPOINT };

/**
 * Events per page of the start-up catch-up. Small enough that a page, parsed, dies in V8's young
 * generation: 2,000 charges (~0.9 kB of JSON each, several kB as objects) outgrew it, so every
 * page was promoted to the old generation, which nothing collects during start-up. Catching up
 * 100,000 charges left ~100 MiB of garbage in the API at ready (RSS 215-250 MiB; 175 with 100).
 */
const CATCH_UP_PAGE = 100;

/** The projections a store runs in the append's transaction (none where it cannot). */
export const inlineOn = (store: EventStore, projections: Projection<any>[]) =>
  store.capabilities.inlineProjections ? projections.filter((p) => p.inline) : [];

/** Plans an append's read-model rows with the projections' own pure `apply` (ADR 14). */
export class InlineProjections implements InlineProjector {
  constructor(private readonly projections: Projection<any>[]) {}

  async plan(input: InlinePlanInput): Promise<InlineTableWrite[]> {
    const writes: InlineTableWrite[] = [];
    for (const projection of this.projections) {
      const relevant = relevantTo(projection, input.events);
      if (relevant.length === 0) continue;
      const byKey = eventsByKey(projection, relevant);
      if (byKey.size === 0) continue;
      const before = await this.before(projection, byKey, input);
      const rows: InlineRow[] = [];
      for (const [key, events] of byKey) {
        let row = before.rows.get(key) ?? null;
        for (const event of events) row = projection.apply(row, event, key);
        const was = before.rows.get(key) ?? null;
        if (row === null && was === null) continue; // nothing there, nothing to write
        rows.push({ id: key, doc: row, values: columnValues(projection, row), ...(before.guarded ? { guard: { before: was } } : {}) });
      }
      if (rows.length > 0) writes.push({ lock: projection.name, table: projection.table, columns: columnTypes(projection), rows });
    }
    return writes;
  }

  /**
   * The rows before the append. A stream-owned row is the fold of the stream's prior events,
   * exact when the append succeeds. Otherwise (or without the prior events) the table is read,
   * except on a first attempt where the stream's own events are assumed to be all there is
   * (a new charge's implicit location): the guard catches a wrong guess, and the retry reads.
   */
  private async before(projection: Projection<any>, keys: ReadonlyMap<string, unknown>, input: InlinePlanInput): Promise<{ rows: Map<string, unknown>; guarded: boolean }> {
    const fromStream = input.prior !== undefined && (projection.inline === 'stream' || input.optimistic);
    if (!fromStream) return { rows: await input.read(projection.table, [...keys.keys()]), guarded: true };
    const rows = new Map<string, unknown>();
    for (const event of relevantTo(projection, input.prior!)) {
      for (const key of keysOf(projection, event)) if (keys.has(key)) rows.set(key, projection.apply(rows.get(key) ?? null, event, key));
    }
    return { rows, guarded: projection.inline !== 'stream' };
  }
}

/**
 * Each key's events, in order, keys in the order they first appear. A batch event names its
 * 1,000 requests: asking every event for its keys once per key made an append of a round cost
 * keys × events × keys (a re-sent batch stalled the API for seconds; ADR 6).
 */
function eventsByKey<E extends ProjectedEvent>(projection: Projection<any>, events: readonly E[]): Map<string, E[]> {
  const byKey = new Map<string, E[]>();
  for (const event of events)
    for (const key of new Set(keysOf(projection, event))) {
      const list = byKey.get(key);
      if (list) list.push(event);
      else byKey.set(key, [event]);
    }
  return byKey;
}

/** A projection's columns as the statement declares them: worked out once (they were on every append's path). */
const columnTypes = (p: Projection<any>) => {
  let types = declaredColumns.get(p);
  if (!types) declaredColumns.set(p, (types = p.columns.map((c) => ({ name: c.name, type: c.sqlType.replace(/\s+NOT NULL\s*$/i, '') }))));
  return types;
};
const declaredColumns = new WeakMap<Projection<any>, { name: string; type: string }[]>();

function columnValues(p: Projection<any>, row: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (row !== null) for (const c of p.columns) out[c.name] = c.value(row) ?? null;
  return out;
}

/**
 * Brings the inline read models up to date, then switches the store to writing them in every
 * append. Under their exclusive locks (taken in list order, so processes starting together take
 * turns) each catches up from its last checkpoint (events appended before inline mode, or while
 * its table was rebuilt) in ONE pass over the log, reading every committed event (the locks keep
 * out inline writers of these models); from then on their checkpoints say `inline`. Run before
 * anything can append through this store.
 */
export async function enableInlineProjections(store: PostgresEventStore, pool: Pool, projections: Projection<any>[]): Promise<void> {
  await inTransaction(pool, async (c) => {
    const behind: { projection: Projection<any>; from?: string }[] = [];
    for (const projection of projections) {
      await c.query(projectionLockSql, [projection.name]);
      const from = await readCheckpoint(c, projection.name);
      if (from !== INLINE_CHECKPOINT) behind.push({ projection, from });
    }
    if (behind.length === 0) return;
    let after = behind.some((b) => b.from === undefined) ? undefined : behind.map((b) => b.from!).reduce((a, b) => (store.comparePositions(a, b) <= 0 ? a : b));
    for (;;) {
      const events = await store.readAll({ after, maxCount: CATCH_UP_PAGE, unfenced: true });
      if (events.length === 0) break;
      for (const { projection, from } of behind) {
        const unseen = from ? events.filter((e) => store.comparePositions(e.position, from) > 0) : events;
        if (unseen.length > 0) await applyEvents(c, projection, projection.table, unseen);
      }
      after = events[events.length - 1].position;
    }
    for (const { projection } of behind) await writeCheckpoint(c, projection.name, INLINE_CHECKPOINT);
  });
  store.useInlineProjections(new InlineProjections(projections));
}
