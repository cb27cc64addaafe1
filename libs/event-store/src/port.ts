/**
 * The event-store port. Small on purpose: every adapter (PostgreSQL, EventStoreDB) implements
 * exactly this and passes the shared contract suite in @pix/testing.
 */

/** Expected state of a stream when appending; `bigint` is the exact revision of its last event. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint;

export interface EventToAppend {
  /** Unique id; appending the same ids to the same stream again is a no-op (idempotent retry). */
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

/**
 * Position in the global order the store delivers to subscribers. Opaque to callers except for
 * comparison through the adapter (`comparePositions`); serialisable as a string for checkpoints.
 */
export type GlobalPosition = string;

export interface RecordedEvent {
  id: string;
  streamId: string;
  /** 0-based revision of this event within its stream. */
  revision: bigint;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** When the store recorded it. */
  recordedAt: Date;
  position: GlobalPosition;
}

export interface AppendResult {
  /** Revision of the last event of the stream after the append. */
  nextExpectedRevision: bigint;
  /** Global position of the last event appended (or found, for an idempotent retry). */
  position: GlobalPosition;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Omit to start at the beginning. */
  after?: GlobalPosition;
  maxCount: number;
  /**
   * Every committed event, without holding back those an older open transaction could still be
   * followed by. Only for a reader that holds a lock keeping out every writer it cares about
   * (an inline projection's catch-up or replay switch-over); adapters without such a fence ignore it.
   */
  unfenced?: boolean;
}

export interface ReadStreamOptions {
  /** The first revision to read (a snapshot's own, to check it against the stream: see snapshots.ts). */
  fromRevision?: bigint;
}

/** What an adapter can do beyond the port's minimum. */
export interface StoreCapabilities {
  /**
   * Read models can be written in the append's own transaction (PostgreSQL): a 2xx then means
   * the row is visible, with no waiting. Elsewhere the same projections run asynchronously.
   */
  inlineProjections: boolean;
  /** `AppendOptions.conditions` are checked in the append's own transaction (PostgreSQL). */
  appendConditions: boolean;
}

/**
 * Something the decision read outside its stream, stated instead of read: the append checks it
 * in its own transaction and fails with AppendConditionFailedError when it does not hold. For
 * PostgreSQL, `sql` is a boolean expression over `$1`… (its own `params`), e.g. a NOT EXISTS on
 * a read model that is written inline.
 */
export interface AppendCondition {
  name: string;
  sql: string;
  params: unknown[];
}

export interface AppendOptions {
  /**
   * The stream's events as the caller read them to decide (the append is at the revision of the
   * last): lets inline projections compute rows owned by this stream without reading them back.
   */
  prior?: readonly RecordedEvent[];
  /** Only for adapters with `capabilities.appendConditions`; the others refuse them. */
  conditions?: readonly AppendCondition[];
}

export interface EventStore {
  readonly name: string;
  readonly capabilities: StoreCapabilities;
  /**
   * Events of one stream in revision order, from `fromRevision` (inclusive; default 0, the whole
   * stream); [] when the stream does not exist or has nothing from there.
   */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  appendToStream(streamId: string, events: EventToAppend[], expected: ExpectedRevision, options?: AppendOptions): Promise<AppendResult>;
  /**
   * A page of events in global order after a checkpoint. Never returns an event while an
   * earlier one (in that order) may still be committed: a reader that advances its checkpoint
   * over what it got never skips anything.
   */
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Orders two positions: negative, zero or positive. */
  comparePositions(a: GlobalPosition, b: GlobalPosition): number;
  /**
   * Calls `listener` whenever new events may be available; a wake-up hint for subscribers, never
   * the data path. `streamId` names the stream when this process appended to it (a listener may
   * then skip streams it does not follow); undefined means "anything may have changed" (another
   * process, a reconnect). Returns an unsubscribe function.
   */
  onAppended(listener: (streamId?: string) => void): () => void;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** An event id reused for different content or in another stream: never silently accepted. */
export class DuplicateEventIdError extends Error {
  constructor(readonly streamId: string, readonly eventIds: string[]) {
    super(`Stream ${streamId}: event id(s) already used elsewhere: ${eventIds.join(', ')}`);
    this.name = 'DuplicateEventIdError';
  }
}

/** An append whose conditions did not hold: nothing was written. */
export class AppendConditionFailedError extends Error {
  constructor(readonly streamId: string, readonly conditions: string[]) {
    super(`Stream ${streamId}: append condition(s) ${conditions.join(', ')} did not hold`);
    this.name = 'AppendConditionFailedError';
  }
}
