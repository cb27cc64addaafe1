import { DomainError, type DomainErrorKind } from '../errors';
import type { Decider } from '../decider';

/**
 * Given/when/then for deciders: given past events, when a command, then the new events or a
 * typed domain error. Plain functions, no framework.
 */
export function deciderSpec<C, E, S>(decider: Decider<C, E, S>) {
  return {
    given(events: E[]) {
      const state = events.reduce(decider.evolve, decider.initialState);
      return {
        when(command: C) {
          const run = () => decider.decide(command, state);
          return {
            then(expected: E[] | ((events: E[]) => void)) {
              const produced = run();
              if (typeof expected === 'function') expected(produced);
              else expect(produced).toEqual(expected);
              return produced;
            },
            thenThrows(kind: DomainErrorKind, propriedades: string[] = []) {
              let error: unknown;
              try {
                run();
              } catch (e) {
                error = e;
              }
              expect(error).toBeInstanceOf(DomainError);
              expect((error as DomainError).kind).toBe(kind);
              const props = (error as DomainError).violacoes.map((v) => v.propriedade);
              for (const p of propriedades) expect(props).toContain(p);
              return error as DomainError;
            },
          };
        },
      };
    },
  };
}
