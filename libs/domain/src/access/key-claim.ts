import type { Decider } from '../decider';
import { DomainError } from '../errors';
import { pixKeyType } from '../shared';
import { invalidKey } from './receiver';

/**
 * `chave-{chave}`: who holds a Pix key here. A key belongs to at most one receiver; the claim is
 * appended at the revision read (no_stream for a key never seen), so of two receivers claiming
 * the same key at once exactly one wins. The receiver's own stream then lists the key.
 */
export type ChaveEvent =
  | { type: 'ChaveReivindicada'; data: { chave: string; recebedorId: string; em: string } }
  | { type: 'ChaveLiberada'; data: { chave: string; recebedorId: string; em: string } };

export type ChaveCommand =
  | { type: 'ReivindicarChave'; chave: string; recebedorId: string; now: Date }
  | { type: 'LiberarChave'; chave: string; recebedorId: string; now: Date };

export interface ChaveState {
  /** The receiver holding the key, if any. */
  dono?: string;
}

export const chaveStreamId = (chave: string) => `chave-${chave}`;

export const chaveDecider: Decider<ChaveCommand, ChaveEvent, ChaveState> = {
  initialState: {},
  decide(command, state) {
    const { chave, recebedorId } = command;
    const data = { chave, recebedorId, em: command.now.toISOString() };
    if (command.type === 'ReivindicarChave') {
      if (pixKeyType(chave) === null) throw invalidKey(chave);
      if (state.dono === recebedorId) return [];
      if (state.dono !== undefined) throw new DomainError('ChaveJaVinculada', `The Pix key ${chave} already belongs to receiver "${state.dono}".`);
      return [{ type: 'ChaveReivindicada', data }];
    }
    if (state.dono !== recebedorId) throw new DomainError('ChaveNaoVinculada', `The Pix key ${chave} is not linked to receiver "${recebedorId}".`);
    return [{ type: 'ChaveLiberada', data }];
  },
  evolve(_state, event) {
    return event.type === 'ChaveReivindicada' ? { dono: event.data.recebedorId } : {};
  },
};
