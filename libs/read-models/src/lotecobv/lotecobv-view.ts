import { buildProblema } from '@pix/contracts';
import type { LoteCobVRow, SolicitacaoLoteRow } from './lotecobv-projection';

type Vista = Pick<SolicitacaoLoteRow, 'txid' | 'status' | 'problema' | 'criacao'>;

/** The official `LoteCobVConsultado`: each request's txid, status, problem when denied, creation time. */
export function toLoteCobVConsultado(lote: LoteCobVRow, itens: readonly Vista[]) {
  return {
    id: Number(lote.id),
    descricao: lote.descricao,
    criacao: lote.criacao,
    cobsv: itens.map((i) => ({
      txid: i.txid,
      status: i.status,
      ...(i.problema ? { problema: buildProblema(i.problema.tipo, { detail: i.problema.detail, violacoes: i.problema.violacoes }) } : {}),
      ...(i.criacao ? { criacao: i.criacao } : {}),
    })),
  };
}
