import { ProblemError, type Violacao } from '@pix/contracts';
import { amountDue, compareDates, formatMoney, isIbgeMunicipalityCode, isValidIsoDate, MAX_WIRE_CENTS, payerDates, type AmountDue, type AmountDueInput, type DueChargeValue } from '@pix/domain';
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

/**
 * DPP and codMun checked as the contract lists CobPayloadOperacaoInvalida's violations. "Today"
 * is the payer's (payerDates): a bank in Acre asking for its own date at 01:00 in Brasília is
 * not asking for a date in the past.
 */
export function readPayloadQuery(query: PayloadQuery, now: Date): { dpp: string; dppGiven: boolean; codMun?: string } {
  const { DPP, codMun } = query;
  if (DPP !== undefined && (typeof DPP !== 'string' || !isValidIsoDate(DPP))) throw invalid('DPP não respeita o _schema_: informe uma data YYYY-MM-DD.', 'DPP', DPP);
  if (codMun !== undefined && (typeof codMun !== 'string' || !/^\d{7}$/.test(codMun))) throw invalid('codMun não respeita o _schema_: informe o código IBGE de 7 dígitos.', 'codMun', codMun);
  // The contract's own violation: "codMun não é um código válido segundo a tabela de municípios do IBGE".
  if (codMun !== undefined && !isIbgeMunicipalityCode(codMun))
    throw invalid('codMun não é um código válido segundo a tabela de municípios do IBGE: os dois primeiros dígitos não são o código de uma Unidade da Federação.', 'codMun', codMun);
  const { today, earliest } = payerDates(now, codMun as string | undefined);
  const dpp = (DPP as string | undefined) ?? today;
  if (compareDates(dpp, earliest) < 0) {
    const where = codMun === undefined ? 'em todo o Brasil' : `no estado do município ${codMun as string}`;
    throw invalid(`DPP anterior ao momento presente (hoje é ${earliest} ${where}).`, 'DPP', dpp);
  }
  return { dpp, dppGiven: DPP !== undefined, ...(codMun !== undefined ? { codMun: codMun as string } : {}) };
}

/**
 * The `CobVPayload` of an active charge for payment on `dpp`: what the payer's bank shows and
 * pays. Amounts come from the domain's amountDue (the same rules as settlement and the sandbox).
 */
export function cobvPayload(row: CobVRow, at: { dpp: string; dppGiven?: boolean; codMun?: string; now: Date }): Record<string, unknown> {
  const c = row.cobranca;
  const input: AmountDueInput = {
    valor: c.valor as DueChargeValue,
    dataDeVencimento: c.calendario.dataDeVencimento,
    validadeAposVencimento: c.calendario.validadeAposVencimento,
    paymentDate: at.dpp,
    ...(at.codMun !== undefined ? { codMun: at.codMun } : {}),
  };
  const due = amountDueOrRefuse(input, at.dpp);
  // Past its last payable date with no DPP asked: the charge is expired, which the contract lets
  // the PSP answer with CobPayloadNaoEncontrado (the payer sent no DPP to be told is invalid).
  if (!due && at.dppGiven === false) throw payloadNotFound('A cobrança desta location está vencida: passou do último dia em que podia ser paga.');
  if (!due) throw invalid('DPP superior à validade da cobrança (calendario.dataDeVencimento e calendario.validadeAposVencimento).', 'DPP', at.dpp);
  const valor = wireValor(due, at.dpp);
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
    valor,
    chave: c.chave,
    solicitacaoPagador: c.solicitacaoPagador,
    infoAdicionais: c.infoAdicionais,
  };
  // Absent optionals leave no nulls the schema does not allow.
  return JSON.parse(JSON.stringify(payload));
}

/**
 * The amounts in the wire form. A charge stored before PUT refused what no payer can pay
 * (payable-valor.ts) can still come, on some dates, to amounts the form cannot carry or to a
 * final of 0.00: such a date is refused like a date past the charge's validity, not answered
 * with a 500 or with nothing to pay.
 */
function wireValor(due: AmountDue, dpp: string): Record<keyof AmountDue, string> {
  const parts = ['original', 'abatimento', 'desconto', 'juros', 'multa', 'final'] as const;
  if (parts.some((k) => due[k] > MAX_WIRE_CENTS)) throw tooLarge(dpp);
  if (due.final <= 0) throw invalid('Nesta DPP os descontos e o abatimento alcançam o valor da cobrança: valor final zero, não há o que pagar.', 'DPP', dpp);
  return Object.fromEntries(parts.map((k) => [k, formatMoney(due[k])])) as Record<keyof AmountDue, string>;
}

/** amountDue, whose arithmetic refuses results past 2^53 cents (RangeError) the same way. */
function amountDueOrRefuse(input: AmountDueInput, dpp: string): AmountDue | null {
  try {
    return amountDue(input);
  } catch (error) {
    if (error instanceof RangeError) throw tooLarge(dpp);
    throw error;
  }
}

const tooLarge = (dpp: string) => invalid(`Nesta DPP a cobrança resulta em valores maiores que ${MAX_WIRE_CENTS / 100}, o máximo representável.`, 'DPP', dpp);
