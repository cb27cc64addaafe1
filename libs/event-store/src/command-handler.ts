import { randomUUID } from 'node:crypto';
import { AppendConditionFailedError, WrongExpectedRevisionError, type AppendCondition, type EventStore, type GlobalPosition, type RecordedEvent } from './port';
import { aggregate, snapshotIfDue } from './aggregate';
import type { Snapshotting } from './snapshots';
import { toEventData, type DomainEvent, type Recorded, type TypedStream } from './typed';

/** A pure aggregate: decide(command, state) → events; evolve(state, event) → state. */
export interface CommandDecider<C, E, S> {
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
  initialState: S;
}

export interface Handled<S, E> {
  state: S;
  /** The events appended (none when the command changed nothing). */
  events: E[];
  /** Where they are, for read-your-writes of asynchronous read models; undefined when nothing changed. */
  position?: GlobalPosition;
  /** Where the stream's last event is after the command (appended or read); undefined for a stream that does not exist. */
  lastPosition?: GlobalPosition;
}

export interface HandleOptions {
  /** Event ids by (revision, index in the append); random by default. Fixed ids make a repeated command a no-op. */
  eventId?: (revision: bigint, index: number) => string;
  maxAttempts?: number;
  /**
   * First decide as if the stream were new, without reading it: one round trip for the common
   * case of a creating command. The append then expects no stream and checks `conditions` (what
   * `build` reads otherwise; it is told `assumedNew`) in its own transaction. When the stream
   * exists, a condition fails or the decision refuses, the command runs the ordinary way. Only
   * where the store checks conditions (or none are needed); `build` must not have effects
   * outside its return value on an assumed attempt.
   */
  assumeNew?: { conditions: AppendCondition[] };
}

/** Options of an aggregate whose streams are snapshotted (a long stream is folded from its snapshot). */
export interface SnapshotOptions<S> extends HandleOptions {
  snapshots?: Snapshotting<S>;
}

export interface BuildContext {
  /** The state is assumed (the stream was not read): see HandleOptions.assumeNew. */
  assumedNew: boolean;
}

/**
 * The one command handler (in the spirit of Emmett's DeciderCommandHandler): read the stream
 * typed as its aggregate's events, fold it with `evolve`, build the command from the state (the
 * place for ports: ids, time, lookups), `decide`, append at the revision read (the store writes
 * inline read models in the same statement, ADR 14), and on a concurrent write start again from
 * the new state. Domain errors pass through untouched; a refused command appends nothing.
 */
export async function handleCommand<C, E extends DomainEvent, S>(
  store: EventStore,
  stream: TypedStream<E>,
  decider: CommandDecider<C, E, S>,
  build: (state: S, recorded: Recorded<E>[], context: BuildContext) => C | Promise<C>,
  options: SnapshotOptions<S> = {},
): Promise<Handled<S, E>> {
  if (options.assumeNew && (options.assumeNew.conditions.length === 0 || store.capabilities.appendConditions)) {
    const done = await assumingNew(store, stream, decider, build, options, options.assumeNew.conditions);
    if (done) return done;
  }
  const maxAttempts = options.maxAttempts ?? 200;
  for (let attempt = 1; ; attempt++) {
    const read = await aggregate(store, stream, decider, options.snapshots);
    const events = decider.decide(await build(read.state, read.recorded, { assumedNew: false }), read.state);
    if (events.length === 0) {
      await snapshotIfDue(stream.id, options.snapshots, read, read.state, read.last, () => read.recorded[read.recorded.length - 1]?.id);
      return { state: read.state, events, lastPosition: read.lastPosition };
    }
    try {
      const done = await append(store, stream, decider, read.state, events, read.all, read.last, options);
      await snapshotIfDue(stream.id, options.snapshots, read, done.state, read.last + BigInt(events.length), () => done.ids[done.ids.length - 1]);
      return { state: done.state, events, position: done.position, lastPosition: done.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, attempt * 2)));
    }
  }
}

/** The assumed-new attempt; undefined when the ordinary path must decide. */
async function assumingNew<C, E extends DomainEvent, S>(
  store: EventStore,
  stream: TypedStream<E>,
  decider: CommandDecider<C, E, S>,
  build: (state: S, recorded: Recorded<E>[], context: BuildContext) => C | Promise<C>,
  options: HandleOptions,
  conditions: AppendCondition[],
): Promise<Handled<S, E> | undefined> {
  const state = decider.initialState;
  let events: E[];
  try {
    events = decider.decide(await build(state, [], { assumedNew: true }), state);
  } catch {
    return undefined; // a refusal of the assumed state is not the answer: decide on the real one
  }
  if (events.length === 0) return undefined;
  try {
    const { ids: _ids, ...done } = await append(store, stream, decider, state, events, [], -1n, options, conditions);
    return { ...done, events, lastPosition: done.position };
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError || error instanceof AppendConditionFailedError) return undefined;
    throw error;
  }
}

async function append<C, E extends DomainEvent, S>(
  store: EventStore,
  stream: TypedStream<E>,
  decider: CommandDecider<C, E, S>,
  state: S,
  events: E[],
  prior: readonly RecordedEvent[] | undefined,
  last: bigint,
  options: HandleOptions,
  conditions?: AppendCondition[],
): Promise<{ state: S; position: GlobalPosition; ids: string[] }> {
  const ids = events.map((_, i) => options.eventId?.(last + 1n + BigInt(i), i) ?? randomUUID());
  const { position } = await store.appendToStream(
    stream.id,
    events.map((e, i) => ({ id: ids[i], type: e.type, data: toEventData(e.data) })),
    last < 0n ? 'no_stream' : last,
    // Without every prior event (a snapshot was used), inline projections read their rows instead.
    { ...(prior ? { prior } : {}), ...(conditions && conditions.length > 0 ? { conditions } : {}) },
  );
  return { state: events.reduce(decider.evolve, state), position, ids };
}
