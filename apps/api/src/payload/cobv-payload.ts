import { ProblemError, type Violacao } from '@pix/contracts';
import { amountDue, compareDates, formatMoney, isValidIsoDate, type AmountDueInput, type DueChargeValue } from '@pix/domain';
import type { CobVRow } from '@pix/read-models';

/** The query of GET /cobv/{pixUrlAccessToken}, as Fastify hands it over (a repeated name is an array). */
export interface PayloadQuery {
  DPP?: unknown;
  codMun?: unknown;
}

const invalid = (razao: string, propriedade: string, valor?: unknown) => {
  const violacao: Violacao = { razao, propriedade, ...(typeof valor === 'string' ? { valor: valor.slice(0, 100) } : {}) };
  return new ProblemError('CobPayloadOperacaoInvalida', razao, [violacao]);
};

export const payloadNotFound = (detail = 'A cobrança em questão não foi encontrada para a location requisitada.') =>
  new ProblemError('CobPayloadNaoEncontrado', detail);

/** DPP and codMun checked as the contract lists CobPayloadOperacaoInvalida's violations. */
export function readPayloadQuery(query: PayloadQuery, today: string): { dpp: string; codMun?: string } {
  const { DPP, codMun } = query;
  if (DPP !== undefined && (typeof DPP !== 'string' || !isValidIsoDate(DPP))) throw invalid('DPP não respeita o _schema_: informe uma data YYYY-MM-DD.', 'DPP', DPP);
  if (codMun !== undefined && (typeof codMun !== 'string' || !/^\d{7}$/.test(codMun))) throw invalid('codMun não respeita o _schema_: informe o código IBGE de 7 dígitos.', 'codMun', codMun);
  const dpp = (DPP as string | undefined) ?? today;
  if (compareDates(dpp, today) < 0) throw invalid(`DPP anterior ao momento presente (hoje é ${today}).`, 'DPP', dpp);
  return { dpp, ...(codMun !== undefined ? { codMun: codMun as string } : {}) };
}

/**
 * The `CobVPayload` of an active charge for payment on `dpp`: what the payer's bank shows and
 * pays. Amounts come from the domain's amountDue (the same rules as settlement and the sandbox).
 */
export function cobvPayload(row: CobVRow, at: { dpp: string; codMun?: string; now: Date }): Record<string, unknown> {
  const c = row.cobranca;
  const input: AmountDueInput = {
    valor: c.valor as DueChargeValue,
    dataDeVencimento: c.calendario.dataDeVencimento,
    validadeAposVencimento: c.calendario.validadeAposVencimento,
    paymentDate: at.dpp,
    ...(at.codMun !== undefined ? { codMun: at.codMun } : {}),
  };
  const due = amountDue(input);
  if (!due) throw invalid('DPP superior à validade da cobrança (calendario.dataDeVencimento e calendario.validadeAposVencimento).', 'DPP', at.dpp);
  // The tenant id and key list are ours, not the contract's.
  const { chaves: _k, id: _id, ...recebedor } = row.recebedor as CobVRow['recebedor'] & { chaves?: string[]; id?: string };
  const payload = {
    calendario: {
      criacao: row.criacao,
      apresentacao: at.now.toISOString(),
      dataDeVencimento: c.calendario.dataDeVencimento,
      validadeAposVencimento: c.calendario.validadeAposVencimento,
    },
    devedor: c.devedor,
    recebedor,
    txid: row.txid,
    revisao: row.revisao,
    status: row.status,
    valor: {
      original: formatMoney(due.original),
      abatimento: formatMoney(due.abatimento),
      desconto: formatMoney(due.desconto),
      juros: formatMoney(due.juros),
      multa: formatMoney(due.multa),
      final: formatMoney(due.final),
    },
    chave: c.chave,
    solicitacaoPagador: c.solicitacaoPagador,
    infoAdicionais: c.infoAdicionais,
  };
  // Absent optionals leave no nulls the schema does not allow.
  return JSON.parse(JSON.stringify(payload));
}
