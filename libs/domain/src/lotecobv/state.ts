import type { LoteCobVEvent } from './events';

export type LoteCobVState =
  | { exists: false }
  | { exists: true; id: string; descricao: string; criacao: string; txids: string[]; rodada: number };

export const initialLoteCobVState: LoteCobVState = { exists: false };

/** Only what deciding needs: the original set of txids and the current round. */
export function evolveLoteCobV(state: LoteCobVState, event: LoteCobVEvent): LoteCobVState {
  switch (event.type) {
    case 'LoteCobVCriado':
      return { exists: true, id: event.data.id, descricao: event.data.descricao, criacao: event.data.criacao, txids: event.data.solicitacoes.map((s) => s.txid), rodada: 0 };
    case 'LoteCobVAlterado':
      if (!state.exists) return state;
      return { ...state, rodada: event.data.rodada, descricao: event.data.descricao ?? state.descricao };
    case 'SolicitacaoLoteDecidida':
      return state;
  }
}
