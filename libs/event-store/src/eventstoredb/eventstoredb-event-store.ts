/**
 * EventStore port on EventStoreDB (gRPC client). The server is the source of truth for ordering
 * ($all commit/prepare positions), optimistic concurrency and event-id idempotency.
 */
import {
  END,
  ErrorType,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  isCommandError,
  START,
  WrongExpectedVersionError,
  type AllStreamSubscription,
  type ReadPosition,
  type ReadStreamOptions as EsdbReadStreamOptions,
} from '@eventstore/db-client';
import {
  DuplicateEventIdError,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type GlobalPosition,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
} from '../port';
import {
  comparePositions,
  decodePosition,
  encodePosition,
  fromEsdb,
  isSystemEvent,
  sameEvent,
  toEsdbExpected,
  toEventData,
  wrongRevision,
} from './mapping';

export interface EventStoreDbEventStoreOptions {
  /** Events fetched per $all round trip in readAll (system events are skipped client-side). */
  readAllPageSize?: number;
  /** Delay before re-subscribing after the onAppended subscription dropped. */
  resubscribeDelayMs?: number;
  /**
   * Reject an id already used elsewhere in the stream when appending at an exact revision (costs
   * a full stream read per such append). Default true: the port requires it. See appendToStream.
   */
  checkEventIdReuse?: boolean;
  /**
   * Most milliseconds a read (a stream, or one page of $all) may take (default 10,000, the
   * client's own deadline for other calls). The client sets none on reads (it passes Infinity),
   * so a server that stops answering mid-read held the request, and every command of that
   * stream, with no end; past this the read fails as a connection error (503, retried later).
   */
  readDeadlineMs?: number;
}

export class EventStoreDbEventStore implements EventStore {
  readonly name = 'eventstoredb';
  /** Read models follow asynchronously (checkpointed subscriptions), with read-your-writes by waiting. */
  readonly capabilities = { inlineProjections: false, appendConditions: false };
  private readonly stops = new Set<() => Promise<void>>();
  private readonly pageSize: number;
  private readonly resubscribeDelayMs: number;
  private readonly checkEventIdReuse: boolean;
  private readonly readDeadlineMs: number;

  constructor(
    private readonly client: EventStoreDBClient,
    options: EventStoreDbEventStoreOptions = {},
  ) {
    this.pageSize = options.readAllPageSize ?? 256;
    this.resubscribeDelayMs = options.resubscribeDelayMs ?? 1_000;
    this.checkEventIdReuse = options.checkEventIdReuse ?? true;
    this.readDeadlineMs = options.readDeadlineMs ?? 10_000;
  }

  /** e.g. `esdb://localhost:2113?tls=false`. */
  static fromConnectionString(cs: string, options?: EventStoreDbEventStoreOptions): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(cs), options);
  }

  readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    return this.readRange(streamId, options.fromRevision && options.fromRevision > 0n ? options.fromRevision : START);
  }

  async appendToStream(streamId: string, events: EventToAppend[], expected: ExpectedRevision, options: AppendOptions = {}): Promise<AppendResult> {
    // Nothing here can check them atomically: the caller reads instead (capabilities.appendConditions).
    if (options.conditions?.length) throw new RangeError(`appendToStream(${streamId}): append conditions are not supported by EventStoreDB`);
    // An empty append has no "last event appended" to report a position for.
    if (events.length === 0) throw new RangeError(`appendToStream(${streamId}): no events to append`);
    if (typeof expected === 'bigint' && this.checkEventIdReuse) await this.rejectReusedIds(streamId, events, expected, options.prior);
    let next: bigint;
    try {
      // Always explicit: the client's default (ANY) would silently skip the concurrency check.
      const result = await this.client.appendToStream(streamId, events.map(toEventData), {
        expectedRevision: toEsdbExpected(expected),
        requiresLeader: true,
      });
      if (!result.success) throw wrongRevision(streamId, expected, result.nextExpectedRevision);
      next = result.nextExpectedRevision;
    } catch (err) {
      if (err instanceof WrongExpectedVersionError) throw wrongRevision(streamId, expected, err.actualVersion);
      throw err;
    }
    // The server reports an idempotent replay (same ids at the same place) exactly like a fresh
    // write, and compares ids only. Reading the batch back tells us whether the stored events carry
    // the same content (else the port demands DuplicateEventIdError) and gives their $all
    // positions, which the append reply omits for replays on some server versions.
    const stored = await this.readRange(streamId, next - BigInt(events.length - 1), events.length);
    if (stored.length !== events.length) {
      throw new Error(`Stream ${streamId}: read back ${stored.length} of ${events.length} appended events`);
    }
    const differing = events.filter((e, i) => !sameEvent(e, stored[i])).map((e) => e.id);
    if (differing.length > 0) throw new DuplicateEventIdError(streamId, differing);
    return { nextExpectedRevision: next, position: stored[stored.length - 1].position };
  }

  async readAll({ after, maxCount }: ReadAllOptions): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    if (maxCount <= 0) return out;
    // The server only ever serves committed events in $all order, so no gap can appear later.
    let floor: GlobalPosition | undefined = after;
    let from: ReadPosition = after === undefined ? START : decodePosition(after);
    const page = Math.max(maxCount + 1, this.pageSize);
    for (;;) {
      let seen = 0;
      let last: GlobalPosition | undefined;
      // Read whole pages (bounded by maxCount) rather than breaking out of the iterator, which
      // would leave the gRPC call running.
      await drain(this.client.readAll({ fromPosition: from, direction: FORWARDS, maxCount: page }), this.readDeadlineMs, 'reading $all', (resolved) => {
        seen += 1;
        const e = resolved.event;
        if (!e) return;
        last = encodePosition(e.position);
        // fromPosition is inclusive: drop the checkpoint event itself (and anything before it).
        if (floor !== undefined && comparePositions(last, floor) <= 0) return;
        if (!isSystemEvent(e) && out.length < maxCount) out.push(fromEsdb(e));
      });
      if (out.length >= maxCount || seen < page || last === undefined) return out;
      floor = last;
      from = decodePosition(last);
    }
  }

  comparePositions(a: GlobalPosition, b: GlobalPosition): number {
    return comparePositions(a, b);
  }

  onAppended(listener: (streamId?: string) => void): () => void {
    let stopped = false;
    let sub: AllStreamSubscription | undefined;
    let timer: NodeJS.Timeout | undefined;
    // A hint only: a throwing listener must not break the subscription.
    const wake = (): void => {
      try {
        listener();
      } catch {
        /* the listener's own problem */
      }
    };
    const start = (): void => {
      if (stopped) return;
      const current = this.client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
      sub = current;
      current.on('data', wake);
      // Subscribing from END misses whatever lands before the server confirms (and, after a drop,
      // whatever landed meanwhile): one wake-up on confirmation makes readers look again.
      current.once('confirmation', wake);
      let dropped = false;
      const onDrop = (): void => {
        if (stopped || dropped) return;
        dropped = true;
        timer = setTimeout(start, this.resubscribeDelayMs);
        timer.unref();
      };
      current.on('error', onDrop);
      current.on('end', onDrop);
    };
    const stop = async (): Promise<void> => {
      if (stopped) return;
      stopped = true;
      this.stops.delete(stop);
      if (timer) clearTimeout(timer);
      await sub?.unsubscribe().catch(() => undefined);
    };
    this.stops.add(stop);
    start();
    return () => void stop();
  }

  async close(): Promise<void> {
    await Promise.all([...this.stops].map((stop) => stop()));
    await this.client.dispose();
  }

  /**
   * EventStoreDB dedups ids only positionally (a retry at the same expected revision) or through a
   * bounded cache ('any'/'stream_exists'); at expected === current revision it appends a reused id
   * again. That case is checked here, race-free: the append is conditional on the stream still
   * ending at `expected`, i.e. on it holding exactly what was just read.
   */
  private async rejectReusedIds(streamId: string, events: EventToAppend[], expected: bigint, prior?: readonly RecordedEvent[]): Promise<void> {
    // The caller's whole read up to `expected` is what the stream holds if the append succeeds:
    // no second read of it (snapshotted callers pass no prior, and are read here).
    const whole = prior && prior.length > 0 && prior[0].revision === 0n && prior[prior.length - 1].revision === expected && BigInt(prior.length) === expected + 1n;
    const existing = whole ? prior : await this.readRange(streamId, START);
    const current = existing.length > 0 ? existing[existing.length - 1].revision : -1n;
    if (current !== expected) return; // the server replays idempotently or rejects the revision
    const ids = new Set(existing.map((e) => e.id));
    const reused = events.filter((e) => ids.has(e.id)).map((e) => e.id);
    if (reused.length > 0) throw new DuplicateEventIdError(streamId, reused);
  }

  /** Forward read of a stream from `from`; [] when the stream does not exist. */
  private async readRange(streamId: string, from: bigint | typeof START, maxCount?: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    // From the leader: a follower (nodePreference=follower or random) may not hold a write yet, so a
    // command decided on a stale stream, and the read-back of an append that succeeded found
    // nothing (a stored write answered 500). A follower answers NotLeader and the client reconnects.
    const options: EsdbReadStreamOptions = { fromRevision: from, direction: FORWARDS, requiresLeader: true, ...(maxCount === undefined ? {} : { maxCount }) };
    try {
      await drain(this.client.readStream(streamId, options), this.readDeadlineMs, `reading stream ${streamId}`, (resolved) => {
        if (resolved.event) out.push(fromEsdb(resolved.event));
      });
    } catch (err) {
      if (err instanceof Error && isCommandError(err) && err.type === ErrorType.STREAM_NOT_FOUND) return [];
      throw err;
    }
    return out;
  }
}

/**
 * Runs `each` over a read's events, failing the read as a connection error (ETIMEDOUT) once
 * `deadlineMs` have passed: the gRPC call is cancelled (a cancelled read would otherwise just end,
 * as if the stream were shorter) and the stream destroyed with that error.
 */
async function drain<T>(stream: AsyncIterable<T> & { cancel(): Promise<void>; destroy(error?: Error): unknown }, deadlineMs: number, what: string, each: (item: T) => void): Promise<void> {
  let expired: Error | undefined;
  const timer = setTimeout(() => {
    expired = Object.assign(new Error(`EventStoreDB: ${what} took more than ${deadlineMs} ms; cancelled`), { code: 'ETIMEDOUT' });
    void stream.cancel().catch(() => undefined);
    stream.destroy(expired);
  }, deadlineMs);
  try {
    for await (const item of stream) each(item);
  } catch (error) {
    throw expired ?? error;
  } finally {
    clearTimeout(timer);
  }
  if (expired) throw expired;
}
