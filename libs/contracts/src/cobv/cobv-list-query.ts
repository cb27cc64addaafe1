// Query strings of `GET /cobv` (list) and `GET /cobv/{txid}?revisao=`. Wording of the semantic
// violations follows the CobVConsultaInvalida section of the official contract.
import { Violacao } from '../problem';
import { CONTRACT_PATTERNS, INT32_MAX } from '../validation/patterns';
import {
  compareInstants,
  millisecondAtOrAbove,
  parametroInvalido,
  parseInt32,
  parseRfc3339Instant,
  QueryInput,
  Rfc3339Instant,
  singleValue,
} from '../validation/query-values';
import { CobrancaStatus } from './cobv-response';

export const COBRANCA_STATUS: readonly CobrancaStatus[] = [
  'ATIVA',
  'CONCLUIDA',
  'REMOVIDA_PELO_USUARIO_RECEBEDOR',
  'REMOVIDA_PELO_PSP',
];

export const PAGINACAO_PADRAO = { paginaAtual: 0, itensPorPagina: 100 } as const;
export const MAX_ITENS_POR_PAGINA = 1000;

export interface CobVListQuery {
  inicio: Date;
  fim: Date;
  cpf?: string;
  cnpj?: string;
  status?: CobrancaStatus;
  locationPresente?: boolean;
  loteCobVId?: number;
  paginaAtual: number;
  itensPorPagina: number;
}

export interface QueryParseResult<T> {
  value?: T;
  violacoes: Violacao[];
}

/**
 * Parses the `GET /cobv` query. Unknown parameters are ignored; repeated ones are violations.
 * `boundsOptional` (GET /webhook, whose inicio and fim the contract leaves optional): an absent
 * bound is the first or last instant UTC states, and a bound sent alone is judged on its own
 * (a 1970-to-9999T23:59:59Z default refused fim=1960-… or inicio=9999-12-31T23:59:59.5Z alone as
 * "fim before inicio", naming a parameter never sent; an audit, 2026-11-27).
 */
export function parseCobVListQuery(query: QueryInput, options: { boundsOptional?: boolean } = {}): QueryParseResult<CobVListQuery> {
  const out: Violacao[] = [];
  const get = (name: string) => singleValue(query ?? {}, name, out);
  const optional = options.boundsOptional === true;

  const [rawInicio, rawFim] = [get('inicio'), get('fim')];
  const inicio = timestamp('inicio', rawInicio, optional, out);
  const fim = timestamp('fim', rawFim, optional, out);
  if (inicio && fim && compareInstants(fim, inicio) < 0) {
    out.push({
      razao: 'O timestamp representado pelo parâmetro fim é anterior ao timestamp representado pelo parâmetro inicio.',
      propriedade: 'fim',
    });
  }
  const read = (bound: Rfc3339Instant | undefined, raw: string | undefined | null) => bound !== undefined || (optional && raw === undefined);
  const bounds = read(inicio, rawInicio) && read(fim, rawFim) ? utcBounds(inicio, rawInicio!, fim, rawFim!, out) : undefined;

  const cpf = matching('cpf', get('cpf'), CONTRACT_PATTERNS.cpf, out);
  const cnpj = matching('cnpj', get('cnpj'), CONTRACT_PATTERNS.cnpj, out);
  if (cpf !== undefined && cnpj !== undefined) {
    out.push({ razao: 'Ambos os parâmetros cpf e cnpj estão preenchidos.', propriedade: 'cpf' });
  }

  const status = oneOf('status', get('status'), COBRANCA_STATUS, out);
  const locationPresente = oneOf('locationPresente', get('locationPresente'), ['true', 'false'], out);
  const loteCobVId = integer('loteCobVId', get('loteCobVId'), out);

  const paginaAtual = pagination('paginacao.paginaAtual', get('paginacao.paginaAtual'), 0, INT32_MAX, out);
  const itensPorPagina = pagination(
    'paginacao.itensPorPagina',
    get('paginacao.itensPorPagina'),
    1,
    MAX_ITENS_POR_PAGINA,
    out,
  );

  if (out.length > 0 || !bounds) return { violacoes: out };
  const value: CobVListQuery = {
    ...bounds,
    paginaAtual: paginaAtual ?? PAGINACAO_PADRAO.paginaAtual,
    itensPorPagina: itensPorPagina ?? PAGINACAO_PADRAO.itensPorPagina,
  };
  if (cpf !== undefined) value.cpf = cpf;
  if (cnpj !== undefined) value.cnpj = cnpj;
  if (status !== undefined) value.status = status;
  if (locationPresente !== undefined) value.locationPresente = locationPresente === 'true';
  if (loteCobVId !== undefined) value.loteCobVId = loteCobVId;
  return { value, violacoes: [] };
}

/** Parses `revisao` of `GET /cobv/{txid}`: absent, or a non-negative int32. */
export function parseRevisaoQuery(value: string | string[] | undefined): QueryParseResult<number | undefined> {
  const out: Violacao[] = [];
  const raw = singleValue({ revisao: value }, 'revisao', out);
  if (raw === null) return { violacoes: out };
  if (raw === undefined) return { value: undefined, violacoes: [] };
  const n = parseInt32(raw);
  if (n === null || n < 0) return { violacoes: [parametroInvalido('revisao', raw)] };
  return { value: n, violacoes: [] };
}

// The instants RFC 3339 states in UTC (four-digit years): 0000-01-01T00:00:00.000Z to
// 9999-12-31T23:59:59.999Z. toISOString of one past them is `+010000-...`, not a date-time.
const FIRST_UTC = new Date(-62_167_219_200_000);
const LAST_UTC = new Date(253_402_300_799_999);

/**
 * The bounds applied and echoed in `parametros`. Stored instants are whole milliseconds: `>= inicio`
 * is `>=` its millisecond at or above, and `<= fim` is `<=` its millisecond at or below. Every
 * instant the API stores is one RFC 3339 states in UTC, so an inicio before the first of them or a
 * fim after the last (`9999-12-31T23:59:59-03:00`, an open end in Brasília time) is that end of the
 * range: the same filter, stated in UTC. A window that starts after the last or ends before the
 * first holds no such instant, and no UTC bound states it: refused, naming the parameter.
 */
function utcBounds(inicio: Rfc3339Instant | undefined, rawInicio: string, fim: Rfc3339Instant | undefined, rawFim: string, out: Violacao[]): { inicio: Date; fim: Date } | undefined {
  const [from, to] = [inicio ? millisecondAtOrAbove(inicio) : FIRST_UTC, fim ? fim.floor : LAST_UTC];
  const startsAfter = from > LAST_UTC && { ...parametroInvalido('inicio', rawInicio), razao: `O parâmetro inicio é posterior a ${LAST_UTC.toISOString()}, o último instante que a API representa em UTC.` };
  const endsBefore = to < FIRST_UTC && { ...parametroInvalido('fim', rawFim), razao: `O parâmetro fim é anterior a ${FIRST_UTC.toISOString()}, o primeiro instante que a API representa em UTC.` };
  if (startsAfter) out.push(startsAfter);
  if (endsBefore) out.push(endsBefore);
  if (startsAfter || endsBefore) return undefined;
  return { inicio: new Date(Math.max(from.getTime(), FIRST_UTC.getTime())), fim: new Date(Math.min(to.getTime(), LAST_UTC.getTime())) };
}

// A `null` raw value was already reported by singleValue (repeated or non-string).

function timestamp(name: string, raw: string | undefined | null, optional: boolean, out: Violacao[]): Rfc3339Instant | undefined {
  if (raw === null || (raw === undefined && optional)) return undefined;
  if (raw === undefined) {
    out.push({ razao: `O parâmetro ${name} é obrigatório.`, propriedade: name });
    return undefined;
  }
  const instant = parseRfc3339Instant(raw);
  if (!instant) out.push(parametroInvalido(name, raw));
  return instant ?? undefined;
}

function matching(name: string, raw: string | undefined | null, pattern: RegExp, out: Violacao[]) {
  if (raw === null || raw === undefined) return undefined;
  if (pattern.test(raw)) return raw;
  out.push(parametroInvalido(name, raw));
  return undefined;
}

function oneOf<T extends string>(name: string, raw: string | undefined | null, allowed: readonly T[], out: Violacao[]) {
  if (raw === null || raw === undefined) return undefined;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  out.push(parametroInvalido(name, raw));
  return undefined;
}

function integer(name: string, raw: string | undefined | null, out: Violacao[]): number | undefined {
  if (raw === null || raw === undefined) return undefined;
  const n = parseInt32(raw);
  if (n === null) out.push(parametroInvalido(name, raw));
  return n ?? undefined;
}

/** Negative values get the contract's own violation ("... é negativo."), others the generic one. */
function pagination(name: string, raw: string | undefined | null, min: number, max: number, out: Violacao[]) {
  if (raw === null || raw === undefined) return undefined;
  const n = /^-\d*[1-9]\d*$/.test(raw) ? -1 : parseInt32(raw); // "-0" is zero
  if (n !== null && n < 0) {
    out.push({ razao: `O parâmetro ${name} é negativo.`, propriedade: name, valor: raw.slice(0, 200) });
    return undefined;
  }
  if (n === null || n < min || n > max) {
    out.push(parametroInvalido(name, raw));
    return undefined;
  }
  return n;
}
