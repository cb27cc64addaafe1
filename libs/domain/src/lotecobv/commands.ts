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
      /**
       * For a PUT repeating the last one: the shell found that its requests, applied to the
       * charges as they are now, would change none of them (each CRIADA, no event, no problem).
       * Only then is the repeat recorded as nothing.
       */
      semEfeitoNasCobrancas?: boolean;
    }
  | { type: 'RevisarLote'; id: string; descricao?: string; solicitacoes: SolicitacaoLote[]; now: Date }
  /** The batch processor's decisions on requests of the batch, recorded as taken. */
  | { type: 'RegistrarDecisoes'; id: string; decisoes: DecisaoSolicitacaoLote[] };
