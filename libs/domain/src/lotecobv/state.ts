import type { LoteCobVEvent, SolicitacaoLote } from './events';

export type LoteCobVState =
  | { exists: false }
  | {
      exists: true;
      id: string;
      descricao: string;
      criacao: string;
      txids: string[];
      rodada: number;
      /** The last PUT's content while no PATCH came after it: a PUT repeating it changes nothing (compared only when a PUT comes). */
      ultimoPut?: UltimoPut;
    };

export interface UltimoPut {
  descricao?: string;
  solicitacoes: readonly SolicitacaoLote[];
}

export const initialLoteCobVState: LoteCobVState = { exists: false };

/** Only what deciding needs: the original set of txids and the current round. */
export function evolveLoteCobV(state: LoteCobVState, event: LoteCobVEvent): LoteCobVState {
  switch (event.type) {
    case 'LoteCobVCriado':
      return {
        exists: true,
        id: event.data.id,
        descricao: event.data.descricao,
        criacao: event.data.criacao,
        txids: event.data.solicitacoes.map((s) => s.txid),
        rodada: 0,
        ultimoPut: { descricao: event.data.descricao, solicitacoes: event.data.solicitacoes },
      };
    case 'LoteCobVAlterado':
      if (!state.exists) return state;
      return {
        ...state,
        rodada: event.data.rodada,
        descricao: event.data.descricao ?? state.descricao,
        ultimoPut: event.data.via === 'ALTERACAO_PUT' ? { descricao: event.data.descricao, solicitacoes: event.data.solicitacoes } : undefined,
      };
    case 'SolicitacaoLoteDecidida':
      return state;
  }
}
