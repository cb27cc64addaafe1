import type { Decider } from '../decider';
import type { LoteCobVCommand } from './commands';
import { decideLoteCobV } from './decide';
import type { LoteCobVEvent } from './events';
import { evolveLoteCobV, initialLoteCobVState, type LoteCobVState } from './state';

export * from './events';
export * from './commands';
export * from './state';
export * from './decide';
export * from './item-decision';

export const lotecobvDecider: Decider<LoteCobVCommand, LoteCobVEvent, LoteCobVState> = {
  decide: decideLoteCobV,
  evolve: evolveLoteCobV,
  initialState: initialLoteCobVState,
};
