/** The shape every aggregate has: pure decide and evolve over a known initial state. */
export interface Decider<Command, Event, State> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState: State;
}

export const foldEvents = <Event, State>(decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState'>, events: Event[]): State =>
  events.reduce(decider.evolve, decider.initialState);
