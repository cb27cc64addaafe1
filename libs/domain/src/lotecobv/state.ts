import { canonicalJson } from '../shared';
import type { LoteCobVEvent } from './events';

export type LoteCobVState =
  | { exists: false }
  | {
      exists: true;
      id: string;
      descricao: string;
      criacao: string;
      txids: string[];
      rodada: number;
      /** The last PUT's content (description and requests, canonical JSON) while no PATCH came after it: a PUT repeating it changes nothing. */
      conteudoPut?: string;
    };

/** What a PUT of a batch sends, in the form its repetition is recognised by. */
export const conteudoPut = (descricao: string | undefined, solicitacoes: unknown) => canonicalJson({ descricao, solicitacoes });

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
        conteudoPut: conteudoPut(event.data.descricao, event.data.solicitacoes),
      };
    case 'LoteCobVAlterado':
      if (!state.exists) return state;
      return {
        ...state,
        rodada: event.data.rodada,
        descricao: event.data.descricao ?? state.descricao,
        conteudoPut: event.data.via === 'ALTERACAO_PUT' ? conteudoPut(event.data.descricao, event.data.solicitacoes) : undefined,
      };
    case 'SolicitacaoLoteDecidida':
      return state;
  }
}
