import { randomUUID } from 'node:crypto';
import { WrongExpectedRevisionError, type EventStore, type GlobalPosition } from './port';
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
  build: (state: S, recorded: Recorded<E>[]) => C | Promise<C>,
  options: HandleOptions = {},
): Promise<Handled<S, E>> {
  const maxAttempts = options.maxAttempts ?? 200;
  for (let attempt = 1; ; attempt++) {
    const raw = await store.readStream(stream.id);
    const recorded = typeEvents(stream, raw);
    const state = recorded.reduce<S>((s, e) => decider.evolve(s, e), decider.initialState);
    const events = decider.decide(await build(state, recorded), state);
    if (events.length === 0) return { state, events };
    const last = recorded.length === 0 ? -1n : recorded[recorded.length - 1].revision;
    try {
      const { position } = await store.appendToStream(
        stream.id,
        events.map((e, i) => ({ id: options.eventId?.(last + 1n + BigInt(i), i) ?? randomUUID(), type: e.type, data: toEventData(e.data) })),
        last < 0n ? 'no_stream' : last,
        { prior: raw },
      );
      return { state: events.reduce(decider.evolve, state), events, position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, attempt * 2)));
    }
  }
}
