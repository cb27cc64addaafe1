import { randomUUID } from 'node:crypto';
import type { Decider } from '@pix/domain';
import { WrongExpectedRevisionError, type EventStore, type GlobalPosition } from '@pix/event-store';

const MAX_ATTEMPTS = 200;

export interface Executed<S, E> {
  state: S;
  events: E[];
  /** Where the appended events are, for read-your-writes; undefined when nothing changed. */
  position?: GlobalPosition;
}

/**
 * The command loop of every use case: read the stream, decide, append at the revision read; on
 * a concurrent write, decide again from the new state. Domain errors pass through untouched.
 */
export async function executeOnStream<C, E extends { type: string; data: object }, S>(
  store: EventStore,
  streamId: string,
  decider: Decider<C, E, S>,
  build: (state: S) => C | Promise<C>,
): Promise<Executed<S, E>> {
  for (let attempt = 1; ; attempt++) {
    const recorded = await store.readStream(streamId);
    const state = recorded.reduce((s, e) => decider.evolve(s, { type: e.type, data: e.data } as E), decider.initialState);
    const events = decider.decide(await build(state), state);
    if (events.length === 0) return { state, events };
    try {
      const result = await store.appendToStream(
        streamId,
        events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data as Record<string, unknown> })),
        recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1].revision,
        { prior: recorded },
      );
      return { state: events.reduce(decider.evolve, state), events, position: result.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, attempt * 2)));
    }
  }
}
