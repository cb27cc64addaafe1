import { tenantKey } from '../shared/tenant';

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
 * Events of the stream `lotecobv-{recebedorId}/{id}`. A round is the creation (0) or one alteration (n);
 * each request of a round gets exactly one decision.
 */
export type LoteCobVEvent =
  | { type: 'LoteCobVCriado'; data: { id: string; descricao: string; criacao: string; solicitacoes: SolicitacaoLote[] } }
  | { type: 'LoteCobVAlterado'; data: { id: string; rodada: number; via: ViaLote; descricao?: string; em: string; solicitacoes: SolicitacaoLote[] } }
  | {
      type: 'SolicitacaoLoteDecidida';
      data: { id: string; rodada: number; txid: string; status: 'CRIADA' | 'NEGADA'; em: string; criacao?: string; problema?: ProblemaSolicitacao };
    };

/** One request's decision in one round. */
export type DecisaoSolicitacaoLote = Extract<LoteCobVEvent, { type: 'SolicitacaoLoteDecidida' }>['data'];

export const LOTECOBV_EVENT_TYPES: readonly LoteCobVEvent['type'][] = ['LoteCobVCriado', 'LoteCobVAlterado', 'SolicitacaoLoteDecidida'];

const PREFIX = 'lotecobv-';

/** A batch's stream: batch ids are the receiver's own, so the receiver is part of the stream. */
export const lotecobvStreamId = (recebedorId: string, id: string) => `${PREFIX}${tenantKey(recebedorId, id)}`;

/** The tenant key `{recebedorId}/{id}` of a batch stream; undefined for any other stream. */
export function lotecobvKeyOfStream(streamId: string): string | undefined {
  return streamId.startsWith(PREFIX) && streamId.indexOf('/') > PREFIX.length ? streamId.slice(PREFIX.length) : undefined;
}
