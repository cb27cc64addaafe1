// Body of `POST /loc` and query of `GET /loc`. The list's period and pagination are read by the
// charge list's parser (same parameters, same violations); only txIdPresente and tipoCob are new.
import { Violacao } from '../problem';
import { ownMember, unknownMemberViolations } from '../validation/own-members';
import { parseCobVListQuery, type QueryParseResult } from '../cobv/cobv-list-query';
import { parametroInvalido, singleValue, type QueryInput } from '../validation/query-values';

export const TIPOS_COB = ['cob', 'cobv'] as const;
export type TipoCobWire = (typeof TIPOS_COB)[number];

/** `PayloadLocationSolicitada`: `{ "tipoCob": "cob" | "cobv" }` and nothing else. */
export function parsePayloadLocationBody(body: unknown): { value?: { tipoCob: TipoCobWire }; violacoes: Violacao[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { violacoes: [{ razao: 'O corpo da requisição deve ser um objeto com tipoCob.', propriedade: 'loc' }] };
  const tipoCob = ownMember(body, 'tipoCob');
  const violacoes: Violacao[] = unknownMemberViolations(body, ['tipoCob'], 'loc');
  if (typeof tipoCob !== 'string' || !(TIPOS_COB as readonly string[]).includes(tipoCob))
    violacoes.push({ razao: 'O campo tipoCob não respeita o _schema_.', propriedade: 'loc.tipoCob', ...(tipoCob === undefined ? {} : { valor: String(tipoCob).slice(0, 100) }) });
  return violacoes.length > 0 ? { violacoes } : { value: { tipoCob: tipoCob as TipoCobWire }, violacoes };
}

export interface LocListQuery {
  inicio: Date;
  fim: Date;
  txIdPresente?: boolean;
  tipoCob?: TipoCobWire;
  paginaAtual: number;
  itensPorPagina: number;
}

const SHARED = ['inicio', 'fim', 'paginacao.paginaAtual', 'paginacao.itensPorPagina'];

/** Parses the `GET /loc` query. Unknown parameters are ignored; repeated ones are violations. */
export function parseLocListQuery(query: QueryInput): QueryParseResult<LocListQuery> {
  const q = query ?? {};
  const shared: QueryInput = {};
  for (const name of SHARED) if (Object.prototype.hasOwnProperty.call(q, name)) shared[name] = q[name];
  const base = parseCobVListQuery(shared);
  const out: Violacao[] = [...base.violacoes];
  const txIdPresente = oneOf('txIdPresente', singleValue(q, 'txIdPresente', out), ['true', 'false'], out);
  const tipoCob = oneOf('tipoCob', singleValue(q, 'tipoCob', out), TIPOS_COB, out);
  if (out.length > 0 || !base.value) return { violacoes: out };
  const { inicio, fim, paginaAtual, itensPorPagina } = base.value;
  const value: LocListQuery = { inicio, fim, paginaAtual, itensPorPagina };
  if (txIdPresente !== undefined) value.txIdPresente = txIdPresente === 'true';
  if (tipoCob !== undefined) value.tipoCob = tipoCob;
  return { value, violacoes: [] };
}

function oneOf<T extends string>(name: string, raw: string | undefined | null, allowed: readonly T[], out: Violacao[]) {
  if (raw === null || raw === undefined) return undefined;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  out.push(parametroInvalido(name, raw));
  return undefined;
}
