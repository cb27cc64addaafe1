// Top-level shape of PUT/PATCH /lotecobv/{id}: `descricao` and `cobsv[]` with a txid each. Each
// request's own body is NOT checked here: a bad one is denied alone (NEGADA) when processed,
// with the same violations PUT /cobv/{txid} gives, and never sinks the batch.
import { MAX_VIOLACOES, Violacao } from '../problem';
import { TXID_EXPECTED } from '../validation/expected-format';
import { ownMember, unknownMemberViolations } from '../validation/own-members';

export const TXID_PATTERN = /^[a-zA-Z0-9]{26,35}$/;
/** Numeric text that fits the contract's int64 id and a JSON number exactly (< 2^53). */
export const LOTE_ID_PATTERN = /^[0-9]{1,15}$/;

export interface LoteCobVRequest {
  descricao?: string;
  cobsv: { txid: string; corpo: Record<string, unknown> }[];
}

const violation = (propriedade: string, razao: string, valor?: unknown): Violacao => ({
  razao,
  propriedade,
  ...(valor === undefined ? {} : { valor: String(valor).slice(0, 200) }),
});

/** `forCreation`: PUT (descricao required, at least one request); PATCH may send a subset and no descricao. */
export function parseLoteCobVBody(body: unknown, options: { maxSolicitacoes: number; forCreation: boolean }): { value?: LoteCobVRequest; violacoes: Violacao[] } {
  const out: Violacao[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { violacoes: [violation('loteCobV', 'O objeto loteCobV não respeita o _schema_.')] };
  // PATCH's body (LoteCobVBodyRevisado) requires neither member: no `cobsv` revises no request.
  const descricao = ownMember(body, 'descricao');
  const sent = ownMember(body, 'cobsv');
  const cobsv = sent === undefined && !options.forCreation ? [] : sent;
  out.push(...unknownMemberViolations(body, ['descricao', 'cobsv'], 'loteCobV'));
  if (descricao === undefined ? options.forCreation : typeof descricao !== 'string')
    out.push(violation('loteCobV.descricao', 'O campo loteCobV.descricao não respeita o _schema_.', descricao));
  if (!Array.isArray(cobsv) || (options.forCreation && cobsv.length === 0)) {
    out.push(violation('loteCobV.cobsV', 'O objeto loteCobV.cobsV não respeita o _schema_: informe um array de solicitações.'));
    return { violacoes: out.slice(0, MAX_VIOLACOES) };
  }
  if (cobsv.length > options.maxSolicitacoes) {
    out.push(violation('loteCobV.cobsV', `O objeto loteCobV.cobsV excede o máximo de ${options.maxSolicitacoes} solicitações por lote.`, cobsv.length));
    return { violacoes: out.slice(0, MAX_VIOLACOES) };
  }
  const seen = new Set<string>();
  const items: LoteCobVRequest['cobsv'] = [];
  cobsv.forEach((item, i) => {
    const path = `loteCobV.cobsV[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return out.push(violation(path, `O objeto ${path} não respeita o _schema_.`));
    const { txid, ...corpo } = item as Record<string, unknown>;
    if (typeof txid !== 'string' || !TXID_PATTERN.test(txid)) return out.push(violation(`${path}.txid`, `O campo ${path}.txid não respeita o _schema_: esperado ${TXID_EXPECTED}.`, txid));
    if (seen.has(txid)) return out.push(violation(`${path}.txid`, `O txid ${txid} aparece mais de uma vez no lote.`, txid));
    seen.add(txid);
    // Kept exactly as sent (the rest copy holds own data members only, whatever their names): the
    // processor validates it with PUT /cobv's own validator, and a bad one is denied alone.
    items.push({ txid, corpo });
  });
  if (out.length > 0) return { violacoes: out.slice(0, MAX_VIOLACOES) };
  return { value: { ...(typeof descricao === 'string' ? { descricao } : {}), cobsv: items }, violacoes: [] };
}
