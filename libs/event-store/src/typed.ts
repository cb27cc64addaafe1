import type { EventStore, RecordedEvent } from './port';

/** A domain event: a member of an aggregate's discriminated union. */
export interface DomainEvent {
  type: string;
  data: object;
}

/** A recorded event whose type and data are the aggregate's own union member. */
export type Recorded<E extends DomainEvent> = Omit<RecordedEvent, 'type' | 'data'> & E;

/** One aggregate's stream: its id and the event types it may hold (the evidence for typing what is read). */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- E types what reading the stream yields
export interface TypedStream<E extends DomainEvent> {
  readonly id: string;
  /** The `type` of every member of E. */
  readonly eventTypes: ReadonlySet<string>;
}

/**
 * A descriptor factory for an aggregate's streams. The type list is a record keyed by every
 * member's `type`, so the compiler refuses a list that misses or invents one.
 */
export function streamType<E extends DomainEvent, A extends unknown[]>(types: Record<E['type'], true>, id: (...args: A) => string): (...args: A) => TypedStream<E> {
  const eventTypes: ReadonlySet<string> = new Set(Object.keys(types));
  return (...args) => ({ id: id(...args), eventTypes });
}

type Untyped = Omit<RecordedEvent, 'data'> & { data: object };

function isOf<E extends DomainEvent>(stream: TypedStream<E>, event: Untyped): event is Recorded<E> {
  return stream.eventTypes.has(event.type);
}

/** The stream's events as its aggregate's own union; an event of another type is a corrupt stream, not a skip. */
export async function readTypedStream<E extends DomainEvent>(store: EventStore, stream: TypedStream<E>): Promise<Recorded<E>[]> {
  return typeEvents(stream, await store.readStream(stream.id));
}

/** `readStream`'s events, checked against the stream's aggregate. */
export function typeEvents<E extends DomainEvent>(stream: TypedStream<E>, events: readonly RecordedEvent[]): Recorded<E>[] {
  const out: Recorded<E>[] = [];
  for (const event of events) {
    const untyped: Untyped = event;
    if (!isOf(stream, untyped)) throw new Error(`Stream ${stream.id} holds an event of type ${event.type}, which its aggregate does not know`);
    out.push(untyped);
  }
  return out;
}

/** The fold half of a decider. */
export interface Evolver<E, S> {
  evolve(state: S, event: E): S;
  initialState: S;
}

/** Event data as the store's port takes it (a plain JSON object), without a cast. */
export const toEventData = (data: object): Record<string, unknown> => ({ ...data });
