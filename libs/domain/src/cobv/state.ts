import type { PixRecebido } from '../pix/pix';
import type { CobVEvent } from './events';
import type { CobVContent, CobVStatus, PayloadLocation, Recebedor } from './types';

export type CobVState =
  | { exists: false }
  | {
      exists: true;
      txid: string;
      status: CobVStatus;
      revisao: number;
      criacao: string;
      cobranca: CobVContent;
      /** Absent once unlinked by `DELETE /loc/{id}/txid`. */
      loc?: PayloadLocation;
      recebedor: Omit<Recebedor, 'chaves'>;
      loteCobVId?: number;
      /** When the last change happened (used by listings' ordering and audits). */
      atualizadaEm: string;
      /** When it was removed (by its receiver or by the PSP): a Pix paid before still concludes it. */
      removidaEm?: string;
      /** Pix received for this charge (the one that concluded it). */
      pix?: PixRecebido[];
    };

export const initialCobVState: CobVState = { exists: false };

export function evolveCobV(state: CobVState, event: CobVEvent): CobVState {
  switch (event.type) {
    case 'CobVCriada': {
      const d = event.data;
      return {
        exists: true,
        txid: d.txid,
        status: 'ATIVA',
        revisao: 0,
        criacao: d.criacao,
        cobranca: d.cobranca,
        loc: d.loc,
        recebedor: d.recebedor,
        ...(d.loteCobVId !== undefined ? { loteCobVId: d.loteCobVId } : {}),
        atualizadaEm: d.criacao,
      };
    }
    case 'CobVRevisada':
      if (!state.exists) return state;
      return { ...state, cobranca: event.data.cobranca, revisao: event.data.revisao, atualizadaEm: event.data.em };
    case 'CobVRemovida':
      if (!state.exists) return state;
      return { ...state, status: event.data.status, revisao: event.data.revisao, atualizadaEm: event.data.em, removidaEm: event.data.em };
    case 'CobVRemovidaPeloPsp':
      if (!state.exists) return state;
      return { ...state, status: 'REMOVIDA_PELO_PSP', revisao: event.data.revisao, atualizadaEm: event.data.em, removidaEm: event.data.em };
    case 'CobVConcluida':
      if (!state.exists) return state;
      // Paid: the charge's content did not change, so its revision does not either.
      return { ...state, status: 'CONCLUIDA', pix: [...(state.pix ?? []), event.data.pix], atualizadaEm: event.data.em };
    case 'CobVLocationVinculada':
      // Nor is a location given again: the contract's `revisao` leaves `loc` out.
      return state.exists ? { ...state, loc: event.data.loc, atualizadaEm: event.data.em } : state;
    case 'CobVLocationDesvinculada': {
      if (!state.exists) return state;
      // The location is not the charge's content: no new revision.
      const { loc: _gone, ...rest } = state;
      return { ...rest, atualizadaEm: event.data.em };
    }
  }
}
