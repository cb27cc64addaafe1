import { EventEmitter } from 'node:events';
import { Pool, type PoolConfig } from 'pg';
import {
  AppendConditionFailedError,
  type AppendOptions,
  DuplicateEventIdError,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
} from '../port';
import { APPEND_SQL, CURRENT_REVISION_SQL, EVENTS_BY_ID_SQL, READ_ALL_SQL, READ_ALL_UNFENCED_SQL } from './append-sql';
import { inlineAppendParams, inlineAppendSql, isConditionFailure, isInlineConflict, toPendingEvents, type InlineProjector } from './inline';
import { comparePgPositions, decodePgPosition, encodePgPosition, PG_START } from './positions';
import { isSameAppend, toRecorded, type EventRow } from './rows';
import { AppendListener, type StoreLogger } from './append-listener';
import { groupable } from './group-append';
import { GroupCommit, type AppendRow, type GroupCommitOptions } from './group-commit';
import { StreamReads } from './stream-reads';
import { migrate } from './migrations';
import { APPENDED_CHANNEL, EVENT_STORE_MIGRATIONS } from './schema';

const UNIQUE_VIOLATION = '23505';


export interface PostgresEventStoreOptions {
  /** Either a pool the caller owns, or a config for one this store owns. */
  pool?: Pool;
  poolConfig?: PoolConfig;
  /** LISTEN for appends made by other processes (off for short-lived tools). */
  listen?: boolean;
  /** Where connection state changes (LISTEN lost / restored) are reported. */
  logger?: StoreLogger;
  /**
   * Which appends other processes must hear of at once (default: all). With inline read models
   * nothing but a few reactors listens, and each NOTIFY is a statement (issue 11).
   */
  notifyOthers?: (streamId: string) => boolean;
  /** Concurrent new-stream appends with inline read models share a statement (false: each its own). */
  groupCommit?: GroupCommitOptions | false;
}

export class PostgresEventStore implements EventStore {
  readonly name = 'postgresql';
  readonly capabilities = { inlineProjections: true, appendConditions: true };
  private readonly pool: Pool;
  private readonly ownsPool: boolean;
  private readonly appended = new EventEmitter().setMaxListeners(0);
  private listener?: AppendListener;
  private closed = false;
  private notifying = false;
  private notifyAgain = false;
  private inline?: InlineProjector;
  private readonly group?: GroupCommit;
  private readonly reads: StreamReads;

  private constructor(private readonly options: PostgresEventStoreOptions) {
    this.ownsPool = !options.pool;
    this.pool = options.pool ?? new Pool(options.poolConfig);
    // An idle pooled connection that dies (server restart, failover) is simply discarded.
    if (this.ownsPool) this.pool.on('error', () => undefined);
    if (options.groupCommit !== false) this.group = new GroupCommit(this.pool, options.groupCommit || {});
    this.reads = new StreamReads(this.pool);
  }

  static async create(options: PostgresEventStoreOptions): Promise<PostgresEventStore> {
    const store = new PostgresEventStore(options);
    await migrate(store.pool, EVENT_STORE_MIGRATIONS);
    if (options.listen !== false) await store.startListening();
    return store;
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    return (await this.reads.read(streamId, options.fromRevision)).map(toRecorded);
  }

  /**
   * From now on every append also writes the projector's read models in its own statement
   * (call once, after those read models caught up: see @pix/read-models `enableInlineProjections`).
   */
  useInlineProjections(projector: InlineProjector): void {
    this.inline = projector;
  }

  get inlineProjections(): boolean {
    return this.inline !== undefined;
  }

  async appendToStream(streamId: string, events: EventToAppend[], expected: ExpectedRevision, options: AppendOptions = {}): Promise<AppendResult> {
    if (events.length === 0) return this.emptyAppend(streamId, expected);
    const payload = JSON.stringify(events.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata ?? {} })));
    const expectedParam = typeof expected === 'bigint' ? expected.toString() : expected;
    const conditions = options.conditions ?? [];
    for (let attempt = 1; ; attempt++) {
      try {
        const writes = this.inline
          ? await this.inline.plan({ streamId, events: toPendingEvents(streamId, events), prior: options.prior, optimistic: attempt === 1, read: (t, ids) => this.readRows(t, ids) })
          : [];
        const combined = writes.length > 0 || conditions.length > 0;
        // Built only if the append runs alone (a grouped one uses the group's statement).
        const single = async () => {
          const statement = combined ? inlineAppendSql(writes, conditions) : { name: 'es_append', text: APPEND_SQL };
          return (await this.pool.query<AppendRow>({ ...statement, values: [streamId, payload, expectedParam, ...(combined ? inlineAppendParams(writes, conditions) : [])] })).rows;
        };
        // A first try at an exact revision may share its statement with other requests' (group commit).
        const exact = expected === 'no_stream' ? -1n : typeof expected === 'bigint' ? expected : undefined;
        const rows =
          this.group && combined && attempt === 1 && exact !== undefined && groupable(conditions)
            ? await this.group.run({ streamId, expected: exact, payload, writes, conditions }, single)
            : await single();
        if (rows.length === 1 && rows[0].stream_revision === null) {
          // Nothing inserted and none of these ids stored: a plain conflict, already measured.
          const current = rows[0].current_revision!;
          if (Number(rows[0].ids_taken) === 0) throw new WrongExpectedRevisionError(streamId, expected, current === '-1' ? 'no_stream' : BigInt(current));
          return await this.explainRejectedAppend(streamId, events, expected);
        }
        if (rows.length === 0) return await this.explainRejectedAppend(streamId, events, expected);
        const last = rows[rows.length - 1];
        this.appended.emit('appended', streamId);
        if (this.options.notifyOthers?.(streamId) ?? true) this.notifyOtherProcesses();
        return {
          nextExpectedRevision: BigInt(last.stream_revision),
          position: encodePgPosition({ transactionId: BigInt(last.transaction_id), globalPosition: BigInt(last.global_position) }),
        };
      } catch (error: any) {
        // A row the append's projections computed from moved meanwhile: plan again from fresh reads.
        if (isInlineConflict(error) && attempt < 20) continue;
        if (isConditionFailure(error)) throw new AppendConditionFailedError(streamId, conditions.map((c) => c.name));
        if (error?.code !== UNIQUE_VIOLATION) throw error;
        // Someone appended to this stream between our read of its revision and our insert.
        if (error.constraint === 'es_events_stream_revision_uq' && expected === 'any') continue;
        return await this.explainRejectedAppend(streamId, events, expected);
      }
    }
  }

  async readAll({ after, maxCount, unfenced }: ReadAllOptions): Promise<RecordedEvent[]> {
    const from = after ? decodePgPosition(after) : PG_START;
    const { rows } = await this.pool.query<EventRow>({
      name: unfenced ? 'es_read_all_unfenced' : 'es_read_all',
      text: unfenced ? READ_ALL_UNFENCED_SQL : READ_ALL_SQL,
      values: [from.transactionId.toString(), from.globalPosition.toString(), maxCount],
    });
    return rows.map(toRecorded);
  }

  comparePositions(a: string, b: string): number {
    return comparePgPositions(a, b);
  }

  onAppended(listener: (streamId?: string) => void): () => void {
    this.appended.on('appended', listener);
    return () => this.appended.off('appended', listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.appended.removeAllListeners();
    await this.listener?.close();
    if (this.ownsPool) await this.pool.end();
  }

  private async readRows(table: string, ids: string[]): Promise<Map<string, unknown>> {
    if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`Not a plain table name: ${table}`);
    const { rows } = await this.pool.query<{ id: string; doc: unknown }>(`SELECT id, doc FROM ${table} WHERE id = ANY($1::text[])`, [ids]);
    return new Map(rows.map((r) => [r.id, r.doc]));
  }

  /** An append that wrote nothing: an idempotent retry, or a real conflict. */
  private async explainRejectedAppend(streamId: string, events: EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    const ids = events.map((e) => e.id);
    const { rows } = await this.pool.query<EventRow>(EVENTS_BY_ID_SQL, [ids]);
    if (rows.length === ids.length && isSameAppend(rows, streamId, ids, expected)) {
      const last = rows[rows.length - 1];
      return {
        nextExpectedRevision: await this.currentRevisionOrThrow(streamId),
        position: encodePgPosition({ transactionId: BigInt(last.transaction_id), globalPosition: BigInt(last.global_position) }),
      };
    }
    if (rows.length > 0) throw new DuplicateEventIdError(streamId, rows.map((r) => r.event_id));
    const actual = await this.currentRevision(streamId);
    throw new WrongExpectedRevisionError(streamId, expected, actual ?? 'no_stream');
  }

  private async emptyAppend(streamId: string, expected: ExpectedRevision): Promise<AppendResult> {
    const actual = await this.currentRevision(streamId);
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && actual === undefined) ||
      (expected === 'stream_exists' && actual !== undefined) ||
      (typeof expected === 'bigint' && actual === expected);
    if (!ok) throw new WrongExpectedRevisionError(streamId, expected, actual ?? 'no_stream');
    return { nextExpectedRevision: actual ?? -1n, position: encodePgPosition(PG_START) };
  }

  private async currentRevision(streamId: string): Promise<bigint | undefined> {
    const { rows } = await this.pool.query<{ rev: string | null }>(CURRENT_REVISION_SQL, [streamId]);
    return rows[0].rev === null ? undefined : BigInt(rows[0].rev);
  }

  private async currentRevisionOrThrow(streamId: string): Promise<bigint> {
    const rev = await this.currentRevision(streamId);
    if (rev === undefined) throw new Error(`Stream ${streamId} vanished`);
    return rev;
  }

  /**
   * Tells other processes' subscribers after the append committed; coalesced, so a burst of
   * appends costs one NOTIFY in flight plus at most one more.
   */
  private notifyOtherProcesses(): void {
    if (this.notifying) {
      this.notifyAgain = true;
      return;
    }
    this.notifying = true;
    this.pool
      .query(`SELECT pg_notify('${APPENDED_CHANNEL}', '')`)
      .catch(() => undefined)
      .finally(() => {
        this.notifying = false;
        if (this.notifyAgain && !this.closed) {
          this.notifyAgain = false;
          this.notifyOtherProcesses();
        }
      });
  }

  /** Whether the LISTEN connection for other processes' appends is up (false when not listening). */
  get listening(): boolean {
    return this.listener?.listening ?? false;
  }

  /** Wake-ups for appends made by other processes; kept up for as long as the store is open. */
  private async startListening(): Promise<void> {
    if (this.closed) return;
    const config = this.options.pool ? (this.options.pool as unknown as { options: PoolConfig }).options : this.options.poolConfig;
    this.listener = new AppendListener({ ...config }, APPENDED_CHANNEL, () => this.appended.emit('appended', undefined), this.options.logger);
    await this.listener.start();
  }
}
