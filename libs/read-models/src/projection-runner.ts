import type { Pool } from 'pg';
import { inTransaction, migrate, subscribeToAll, type EventStore, type GlobalPosition, type Migration, type RecordedEvent, type Subscription } from '@pix/event-store';
import { applyEvents } from './apply-batch';
import { handles, type Projection } from './projection';
import { ensureProjectionTable } from './table-shape';

export interface RunnerLogger {
  log(message: string): void;
  error(message: string, error?: unknown): void;
}

/** Events a read model may pass over without saving its checkpoint (a restart re-reads at most these). */
const SAVE_SKIPPED_EVERY = 5000;

/** Every process runs the runner; a per-projection transaction lock makes them take turns. */
export const projectionLockSql = `SELECT pg_advisory_xact_lock(hashtext('projection:' || $1))`;

/** The checkpoint of a read model kept inline (ADR 14): nothing to resume, every append writes it. */
export const INLINE_CHECKPOINT = 'inline';

/**
 * The projection's lock for work on its live table (start-up DDL, a replay's first step and its
 * switch-over), with the table lock that work needs (`mode`) taken in the order its writers take
 * theirs. An inline append locks the table when PostgreSQL plans its statement and takes the
 * projection's lock (shared) only as it runs, so once the read model is inline the table comes
 * first: the projection's lock first and then DDL or a rename deadlocked with any append planned
 * in between, and PostgreSQL aborted one of the two (a PUT /cobv answered 500, or a replay or an
 * instance's start-up failed; an audit, 2026-11-28). A runner (a read model not inline) takes the
 * projection's lock before it writes the table, so there the projection's lock stays first.
 * Whether the read model is inline changes only at a start-up, under these locks: read before them.
 */
export async function lockProjectionForTableWork(db: Pick<Pool, 'query'>, projection: Pick<Projection<unknown>, 'name' | 'table'>, mode: 'SHARE' | 'ACCESS EXCLUSIVE'): Promise<void> {
  const { rows } = await db.query<{ live: boolean; checkpoints: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS live, to_regclass('projection_checkpoints') IS NOT NULL AS checkpoints`, [projection.table]);
  // Before the first start nothing is inline yet (and the checkpoints table may not exist).
  const inline = rows[0].live && rows[0].checkpoints && (await readCheckpoint(db, projection.name)) === INLINE_CHECKPOINT;
  if (inline) await db.query(`LOCK TABLE ${projection.table} IN ${mode} MODE`);
  await db.query(projectionLockSql, [projection.name]);
}

/**
 * A read model's table as a start-up migration. Repeatable: its shape is checked against the
 * code on every start (a stale table is dropped and rebuilt). It runs under the one schema lock
 * (the checkpoints table is shared by every read model, so per-projection locks let two
 * processes race on creating it) and then the projection's own lock, so it never drops a table
 * another process is writing a page into.
 */
export function projectionMigration(projection: Projection<unknown>, onRebuilt?: () => void): Migration {
  return {
    id: `read-model:${projection.name}`,
    repeatable: true,
    up: async (client) => {
      await lockProjectionForTableWork(client, projection, 'SHARE');
      if (await ensureProjectionTable(client, projection)) onRebuilt?.();
    },
  };
}

/**
 * Keeps one read model up to date from the event store. Each page of events is applied in one
 * transaction that also moves the checkpoint, under the projection's lock, after re-reading the
 * checkpoint: several processes (or a replay's switch-over) never apply an event twice.
 */
export class ProjectionRunner<Row> {
  private subscription?: Subscription;
  private position?: GlobalPosition;
  private waiters: { position: GlobalPosition; resolve(ok: boolean): void }[] = [];
  private readonly listeners = new Set<(position: GlobalPosition) => void>();
  private skippedSinceSave = 0;

  constructor(
    private readonly store: EventStore,
    private readonly pool: Pool,
    readonly projection: Projection<Row>,
    private readonly logger?: RunnerLogger,
  ) {}

  /** Creates the tables and loads the checkpoint; `start` or a `ProjectionGroup` then feeds it. */
  async prepare(): Promise<GlobalPosition | undefined> {
    let rebuilt = false;
    await migrate(this.pool, [projectionMigration(this.projection as Projection<unknown>, () => (rebuilt = true))]);
    if (rebuilt) this.logger?.log(`projection ${this.projection.name}: ${this.projection.table} had an older shape; rebuilding it from the first event`);
    this.position = await readCheckpoint(this.pool, this.projection.name);
    return this.position;
  }

  /** Runs on its own subscription (a group of runners shares one instead). */
  async start(): Promise<void> {
    await this.prepare();
    this.subscription = subscribeToAll(this.store, {
      after: this.position,
      batchSize: 500,
      handle: (events) => this.handle(events),
      onError: (error) => this.logger?.error(`projection ${this.projection.name} failed to apply a batch; retrying`, error),
      pollWhile: () => this.waiters.length > 0,
    });
  }

  /** Nudges the feeding subscription, for `waitFor` when the feed belongs to a group. */
  attach(subscription: Subscription): void {
    this.subscription = subscription;
  }

  get hasWaiters(): boolean {
    return this.waiters.length > 0;
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    for (const w of this.waiters.splice(0)) w.resolve(false);
  }

  /** Resolves true once the read model includes the event at `position` (read-your-writes). */
  waitFor(position: GlobalPosition, timeoutMs = 5000): Promise<boolean> {
    if (this.position && this.store.comparePositions(this.position, position) >= 0) return Promise.resolve(true);
    this.subscription?.wake();
    return new Promise((resolve) => {
      const waiter = { position, resolve };
      this.waiters.push(waiter);
      setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs).unref();
    });
  }

  /** Called after each committed page; for reactors that work off this read model. */
  onAdvance(listener: (position: GlobalPosition) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get checkpoint(): GlobalPosition | undefined {
    return this.position;
  }

  /**
   * Applies a page. A page with nothing for this projection only moves the in-memory position
   * (the stored checkpoint catches up with the next real change; re-reading what it skipped is
   * harmless), so the other read models' traffic costs no transaction here.
   */
  async handle(events: RecordedEvent[]): Promise<GlobalPosition> {
    const last = events[events.length - 1].position;
    const unseen = this.position ? events.filter((e) => this.store.comparePositions(e.position, this.position!) > 0) : events;
    if (!unseen.some((e) => handles(this.projection, e))) {
      if (!this.position || this.store.comparePositions(last, this.position) > 0) this.advance(last);
      this.skippedSinceSave += unseen.length;
      // Now and then the skipped stretch is saved too, so a restart does not re-read it all.
      if (this.skippedSinceSave >= SAVE_SKIPPED_EVERY) await this.saveSkipped(last);
      return this.position ?? last;
    }
    this.skippedSinceSave = 0;
    const reached = await inTransaction(this.pool, async (c) => {
      await c.query(projectionLockSql, [this.projection.name]);
      const saved = await readCheckpoint(c, this.projection.name);
      // Another process (or a replay switch-over) may already have applied some of these.
      const fresh = saved ? events.filter((e) => this.store.comparePositions(e.position, saved) > 0) : events;
      if (fresh.length === 0) return saved!;
      await applyEvents(c, this.projection, this.projection.table, fresh);
      await writeCheckpoint(c, this.projection.name, last);
      return last;
    });
    this.advance(reached);
    return reached;
  }

  private async saveSkipped(position: GlobalPosition): Promise<void> {
    this.skippedSinceSave = 0;
    await inTransaction(this.pool, async (c) => {
      await c.query(projectionLockSql, [this.projection.name]);
      const saved = await readCheckpoint(c, this.projection.name);
      if (!saved || this.store.comparePositions(position, saved) > 0) await writeCheckpoint(c, this.projection.name, position);
    });
  }

  private advance(position: GlobalPosition): void {
    this.position = position;
    const done = this.waiters.filter((w) => this.store.comparePositions(position, w.position) >= 0);
    this.waiters = this.waiters.filter((w) => !done.includes(w));
    for (const w of done) w.resolve(true);
    for (const listener of this.listeners) listener(position);
  }
}

type Queryable = Pick<Pool, 'query'>;

export async function readCheckpoint(db: Queryable, name: string): Promise<GlobalPosition | undefined> {
  const { rows } = await db.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [name]);
  return rows[0]?.position;
}

export async function writeCheckpoint(db: Queryable, name: string, position: GlobalPosition): Promise<void> {
  await db.query(
    `INSERT INTO projection_checkpoints (name, position, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now()`,
    [name, position],
  );
}
