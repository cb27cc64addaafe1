/** One creation/alteration request of a batch, as sent (validated when it is processed). */
export interface SolicitacaoLote {
  txid: string;
  /** The request body without `txid`, as received. */
  corpo: Record<string, unknown>;
}

export type StatusSolicitacao = 'EM_PROCESSAMENTO' | 'CRIADA' | 'NEGADA';

/** How a round's requests are applied to their charges. */
export type ViaLote = 'CRIACAO' | 'ALTERACAO_PUT' | 'REVISAO_PATCH';

export interface ProblemaSolicitacao {
  tipo: 'CobVOperacaoInvalida' | 'CobVNaoEncontrada';
  detail: string;
  violacoes: { razao: string; propriedade?: string; valor?: string }[];
}

/**
 * Events of the stream `lotecobv-{id}`. A round is the creation (0) or one alteration (n);
 * each request of a round gets exactly one decision.
 */
export type LoteCobVEvent =
  | { type: 'LoteCobVCriado'; data: { id: string; descricao: string; criacao: string; solicitacoes: SolicitacaoLote[] } }
  | { type: 'LoteCobVAlterado'; data: { id: string; rodada: number; via: ViaLote; descricao?: string; em: string; solicitacoes: SolicitacaoLote[] } }
  | {
      type: 'SolicitacaoLoteDecidida';
      data: { id: string; rodada: number; txid: string; status: 'CRIADA' | 'NEGADA'; em: string; criacao?: string; problema?: ProblemaSolicitacao };
    };

export const LOTECOBV_EVENT_TYPES: readonly LoteCobVEvent['type'][] = ['LoteCobVCriado', 'LoteCobVAlterado', 'SolicitacaoLoteDecidida'];

export const lotecobvStreamId = (id: string) => `lotecobv-${id}`;
