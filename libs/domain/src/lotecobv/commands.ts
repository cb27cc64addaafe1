import type { DecisaoSolicitacaoLote, SolicitacaoLote } from './events';

export type LoteCobVCommand =
  | {
      type: 'CriarOuAlterarLote';
      id: string;
      descricao: string;
      solicitacoes: SolicitacaoLote[];
      now: Date;
      /** txids of this request that already exist as charges or belong to another batch. */
      txidsIndisponiveis: string[];
    }
  | { type: 'RevisarLote'; id: string; descricao?: string; solicitacoes: SolicitacaoLote[]; now: Date }
  /** The batch processor's decisions on requests of the batch, recorded as taken. */
  | { type: 'RegistrarDecisoes'; id: string; decisoes: DecisaoSolicitacaoLote[] };
