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
  /** Who held the key when, oldest first: a Pix belongs to the holder at its `horario` (see holderAt). */
  periodos: readonly PeriodoChave[];
}

/** A receiver's holding of the key: from its claim until its release (open while it holds it). */
export interface PeriodoChave {
  recebedorId: string;
  desde: string;
  ate?: string;
}

export const chaveStreamId = (chave: string) => `chave-${chave}`;

export const chaveDecider: Decider<ChaveCommand, ChaveEvent, ChaveState> = {
  initialState: { periodos: [] },
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
  evolve(state, event) {
    const { recebedorId, em } = event.data;
    if (event.type === 'ChaveReivindicada') return { dono: recebedorId, periodos: [...state.periodos, { recebedorId, desde: em }] };
    return { periodos: state.periodos.map((p, i) => (i === state.periodos.length - 1 && p.ate === undefined ? { ...p, ate: em } : p)) };
  },
};

/**
 * The receiver that held the key at `instante` (a Pix's `horario`): the money went to that
 * receiver's account, so its settlement and its notification are that receiver's, even when a
 * consumer reads the cash-in after the key has moved on (ADR 9). Before the key's first claim
 * here it is its first holder's (a cash-in older than the key's registration here came with
 * it); between a release and the next claim it is nobody's (which account it reached is unknown).
 */
export function holderAt(state: ChaveState, instante: Date): string | undefined {
  const t = instante.getTime();
  if (Number.isNaN(t) || state.periodos.length === 0) return undefined;
  for (let i = state.periodos.length - 1; i >= 0; i--) {
    const p = state.periodos[i];
    if (Date.parse(p.desde) <= t) return p.ate === undefined || t < Date.parse(p.ate) ? p.recebedorId : undefined;
  }
  return state.periodos[0].recebedorId;
}
