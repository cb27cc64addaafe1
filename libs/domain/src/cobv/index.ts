export * from './types';
export * from './events';
export * from './commands';
export * from './state';
export * from './decide';
export * from './validate-content';
import type { Decider } from '../decider';
import type { CobVCommand } from './commands';
import { decideCobV } from './decide';
import type { CobVEvent } from './events';
import { evolveCobV, initialCobVState, type CobVState } from './state';

export const cobvDecider: Decider<CobVCommand, CobVEvent, CobVState> = {
  decide: decideCobV,
  evolve: evolveCobV,
  initialState: initialCobVState,
};
