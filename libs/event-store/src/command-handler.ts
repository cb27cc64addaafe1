import { randomUUID } from 'node:crypto';
import { AppendConditionFailedError, WrongExpectedRevisionError, type AppendCondition, type EventStore, type GlobalPosition, type RecordedEvent } from './port';
import { toEventData, typeEvents, type DomainEvent, type Recorded, type TypedStream } from './typed';

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
  options: HandleOptions = {},
): Promise<Handled<S, E>> {
  if (options.assumeNew && (options.assumeNew.conditions.length === 0 || store.capabilities.appendConditions)) {
    const done = await assumingNew(store, stream, decider, build, options, options.assumeNew.conditions);
    if (done) return done;
  }
  const maxAttempts = options.maxAttempts ?? 200;
  for (let attempt = 1; ; attempt++) {
    const raw = await store.readStream(stream.id);
    const recorded = typeEvents(stream, raw);
    const state = recorded.reduce<S>((s, e) => decider.evolve(s, e), decider.initialState);
    const events = decider.decide(await build(state, recorded, { assumedNew: false }), state);
    if (events.length === 0) return { state, events };
    try {
      return await append(store, stream, decider, state, events, raw, recorded.length === 0 ? -1n : recorded[recorded.length - 1].revision, options);
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
    return await append(store, stream, decider, state, events, [], -1n, options, conditions);
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
  prior: RecordedEvent[],
  last: bigint,
  options: HandleOptions,
  conditions?: AppendCondition[],
): Promise<Handled<S, E>> {
  const { position } = await store.appendToStream(
    stream.id,
    events.map((e, i) => ({ id: options.eventId?.(last + 1n + BigInt(i), i) ?? randomUUID(), type: e.type, data: toEventData(e.data) })),
    last < 0n ? 'no_stream' : last,
    { prior, ...(conditions && conditions.length > 0 ? { conditions } : {}) },
  );
  return { state: events.reduce(decider.evolve, state), events, position };
}
