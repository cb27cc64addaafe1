import type { Decider } from '../decider';
import { DomainError } from '../errors';
import type { LocationCommand } from './commands';
import type { LocationEvent } from './events';
import { evolveLocation, initialLocationState, type LocationState } from './state';

const notFound = () => new DomainError('PayloadLocationNaoEncontrado', 'Location não encontrada para o id informado.');

/** Pure: creating, linking to a charge and unlinking a payload location. Throws DomainError. */
export function decideLocation(command: LocationCommand, state: LocationState): LocationEvent[] {
  const em = command.now.toISOString();
  if (command.type === 'CriarLocation') {
    // Ids come from a sequence and are never reused: an existing stream is a retried creation.
    if (state.exists) return [];
    const { id, tipoCob, location, recebedorId } = command;
    return [{ type: 'LocationCriada', data: { id, tipoCob, location, criacao: em, recebedorId } }];
  }
  if (!state.exists) throw notFound();
  if (command.type === 'VincularLocation') {
    // The contract's own words for these refusals (CobVOperacaoInvalida's violations).
    const campo = command.campo ?? 'loc.id';
    if (state.tipoCob !== command.tipoCob)
      throw new DomainError('PayloadLocationOperacaoInvalida', `A location ${state.id} é do tipo ${state.tipoCob}.`, [
        { razao: `O location referenciado por ${campo} apresenta tipo "${state.tipoCob}" (deveria ser "${command.tipoCob}").`, propriedade: campo, valor: String(state.id) },
      ]);
    if (state.txid === command.txid) return [];
    if (state.txid !== undefined)
      throw new DomainError('PayloadLocationOperacaoInvalida', `A location ${state.id} já está vinculada a outra cobrança.`, [
        { razao: `O location referenciado por ${campo} já está sendo utilizado por outra cobrança.`, propriedade: campo, valor: String(state.id) },
      ]);
    return [{ type: 'LocationVinculada', data: { txid: command.txid, em } }];
  }
  if (state.txid === undefined || (command.txid !== undefined && command.txid !== state.txid)) return [];
  return [{ type: 'LocationDesvinculada', data: { txid: state.txid, em } }];
}

export const locationDecider: Decider<LocationCommand, LocationEvent, LocationState> = {
  decide: decideLocation,
  evolve: evolveLocation,
  initialState: initialLocationState,
};
