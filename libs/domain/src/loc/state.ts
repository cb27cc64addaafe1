import type { LocationEvent, TipoCob } from './events';

export type LocationState =
  | { exists: false }
  | { exists: true; id: number; tipoCob: TipoCob; location: string; criacao: string; recebedorId: string; txid?: string };

export const initialLocationState: LocationState = { exists: false };

export function evolveLocation(state: LocationState, event: LocationEvent): LocationState {
  switch (event.type) {
    case 'LocationCriada':
      return { exists: true, ...event.data };
    case 'LocationVinculada':
      return state.exists ? { ...state, txid: event.data.txid } : state;
    case 'LocationDesvinculada': {
      if (!state.exists) return state;
      const { txid: _gone, ...rest } = state;
      return rest;
    }
  }
}
