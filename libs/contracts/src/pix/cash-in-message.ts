// The cash-in event a PSP's core publishes (and the sandbox payer imitates): one received Pix,
// with the fields of the official `Pix` schema plus the payer where known. Versioned topic;
// key = the receiver's Pix key, so events for one key stay in order. Every consumer validates
// each message with `parsePixRecebidoMessage`; an invalid one goes to the dead-letter topic.
// "Valid" includes "storable": a message PostgreSQL would refuse (a NUL, a lone surrogate, Feb 30)
// failed its consumer's statement again at every retry and held back every partition behind it.
import { hasUnstorableText, MAX_JSON_DEPTH, parseStrictJson, StrictJsonError } from '../validation/strict-json';
import { CONTRACT_PATTERNS } from '../validation/patterns';
import { parseRfc3339 } from '../validation/query-values';

export const CASH_IN_TOPIC = 'pix.cash-in.v1';
export const CASH_IN_DEAD_LETTER_TOPIC = 'pix.cash-in.v1.dlt';
/**
 * How far a `horario` may be after the message was published: the SPI settled the Pix before the
 * PSP core published it, so only the two clocks' skew can put it later.
 */
export const HORARIO_CLOCK_SKEW_MS = 5 * 60_000;

export interface PixRecebidoMessage {
  versao: 1;
  endToEndId: string;
  txid?: string;
  chave: string;
  /** "123.45" */
  valor: string;
  /** RFC 3339. Any offset and fraction are accepted on the topic; parsed, it is UTC with milliseconds (`toISOString`). */
  horario: string;
  infoPagador?: string;
  pagador?: { cpf?: string; cnpj?: string; nome?: string };
  componentesValor?: Record<string, { valor: string; modalidade?: number }>;
}

const E2E_ID = /^[a-zA-Z0-9]{32}$/;
const TXID = CONTRACT_PATTERNS.pixTxid;
const MONEY = CONTRACT_PATTERNS.money;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
/** PostgreSQL's timestamptz takes offsets up to 15:59 and no year 0. */
const OFFSET_PAST_PG = /[+-](1[6-9]|2\d):\d{2}$/;
const KNOWN = new Set(['versao', 'endToEndId', 'txid', 'chave', 'valor', 'horario', 'infoPagador', 'pagador', 'componentesValor']);

/**
 * Validates a message value (bytes or text); never throws. `publishedAt` is when it was published:
 * the Kafka record's own timestamp (every consumer group sees the same one, so all judge a message
 * alike), or the publish time on local mode's in-process transport. A `horario` later than that
 * plus HORARIO_CLOCK_SKEW_MS is refused: ADR 9 gives a cash-in to whoever holds the key at its
 * horario, so a future one would go to a later holder of the key.
 */
export function parsePixRecebidoMessage(raw: Buffer | string | null | undefined, publishedAt: Date): { value?: PixRecebidoMessage; error?: string } {
  if (raw === null || raw === undefined) return { error: 'empty message' };
  let json: unknown;
  try {
    // Read strictly, as the HTTP edge reads bodies, but refusing only texts no column can store:
    // a member sent twice ({"valor":"1.00","valor":"100.00"}) is ambiguous, and JSON.parse kept
    // the last one (an audit, 2026-11-27). Bytes that are not UTF-8 are still read as U+FFFD: the
    // money has moved, and a text damaged in a name must not hold its charge unsettled.
    json = parseStrictJson(typeof raw === 'string' ? raw : raw.toString('utf8'), MAX_JSON_DEPTH, hasUnstorableText);
  } catch (error) {
    if (!(error instanceof StrictJsonError)) throw error;
    if (error.fault === 'duplicate') return { error: `member ${error.path} is sent twice: which one is meant is ambiguous` };
    if (error.fault === 'text') return { error: `${error.path} holds U+0000 or a lone UTF-16 surrogate, which cannot be stored` };
    return { error: error.fault === 'syntax' ? 'not JSON' : `not JSON this contract reads (${error.message})` };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { error: 'not a JSON object' };
  const m = json as Record<string, unknown>;
  const unknown = Object.keys(m).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0) return { error: `unknown field(s): ${unknown.join(', ')}` };
  if (m.versao !== 1) return { error: 'versao must be 1' };
  if (typeof m.endToEndId !== 'string' || !E2E_ID.test(m.endToEndId)) return { error: 'endToEndId must be 32 letters and digits' };
  if (m.txid !== undefined && (typeof m.txid !== 'string' || !TXID.test(m.txid))) return { error: 'txid must be 1 to 35 letters and digits' };
  if (typeof m.chave !== 'string' || m.chave.length === 0 || characters(m.chave) > 77) return { error: 'chave must be a Pix key (1 to 77 characters)' };
  if (typeof m.valor !== 'string' || !MONEY.test(m.valor) || Number(m.valor) === 0) return { error: 'valor must be a non-zero amount like "123.45"' };
  const horario = typeof m.horario === 'string' ? storableInstant(m.horario) : null;
  if (!horario) return { error: 'horario must be an RFC 3339 timestamp of a real date, years 0001 to 9999, offset at most 15:59' };
  const futureError = horarioAfterPublication(horario, publishedAt);
  if (futureError) return { error: futureError };
  if (m.infoPagador !== undefined && (typeof m.infoPagador !== 'string' || characters(m.infoPagador) > 140)) return { error: 'infoPagador must be text of at most 140 characters' };
  for (const [name, text] of [['chave', m.chave], ['infoPagador', m.infoPagador], ['pagador.nome', (m.pagador as { nome?: unknown } | undefined)?.nome]] as const)
    if (typeof text === 'string' && hasUnstorableText(text)) return { error: `${name} holds U+0000 or a lone UTF-16 surrogate, which cannot be stored` };
  if (m.pagador !== undefined && !isPagador(m.pagador)) return { error: 'pagador must be {cpf|cnpj, nome}' };
  if (m.componentesValor !== undefined && !isComponentes(m.componentesValor)) return { error: 'componentesValor must map names to {valor}' };
  // Every consumer stores and serves `horario` as parsed here: one UTC, millisecond form
  // (`toISOString`), so settlement's record and the notifier's webhook body agree byte for byte
  // whatever offset or fraction the PSP core sent.
  return { value: { ...m, horario: horario.toISOString() } as unknown as PixRecebidoMessage };
}

/**
 * A text's length as the contract's `maxLength` counts it (JSON Schema: characters, that is code
 * points), not in UTF-16 units: 71 emoji are 71 characters (2026-11-27, an audit: such a Pix was
 * dead-lettered, its charge left payable and the receiver never told).
 */
function characters(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++, n++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}

function horarioAfterPublication(horario: Date, publishedAt: Date): string | undefined {
  // No timestamp to judge by: refused alike by every consumer rather than let through unchecked.
  if (Number.isNaN(publishedAt.getTime())) return 'the message has no valid publish timestamp to check horario against';
  if (horario.getTime() > publishedAt.getTime() + HORARIO_CLOCK_SKEW_MS)
    return `horario ${horario.toISOString()} is after the message was published (${publishedAt.toISOString()}) by more than ${HORARIO_CLOCK_SKEW_MS / 60_000} minutes of clock skew`;
  return undefined;
}

/** The instant of an RFC 3339 timestamp PostgreSQL stores (to the millisecond at or below it), or null. */
function storableInstant(s: string): Date | null {
  if (!RFC3339.test(s) || OFFSET_PAST_PG.test(s)) return null;
  const instant = parseRfc3339(s);
  if (!instant || s.startsWith('0000')) return null;
  const year = instant.getUTCFullYear();
  return year >= 1 && year <= 9999 ? instant : null;
}

function isPagador(p: unknown): boolean {
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return false;
  const { cpf, cnpj, nome, ...rest } = p as Record<string, unknown>;
  return (
    Object.keys(rest).length === 0 &&
    (cpf === undefined || (typeof cpf === 'string' && /^\d{11}$/.test(cpf))) &&
    (cnpj === undefined || (typeof cnpj === 'string' && /^[0-9A-Z]{14}$/.test(cnpj))) &&
    (nome === undefined || (typeof nome === 'string' && characters(nome) <= 200))
  );
}

/** Each component `{ valor, modalidade? }` and nothing more: whatever else it held would be stored as sent. */
function isComponentes(c: unknown): boolean {
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return false;
  return Object.entries(c).every(([k, v]) => {
    if (!['original', 'juros', 'multa', 'abatimento', 'desconto'].includes(k) || typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const { valor, modalidade, ...rest } = v as Record<string, unknown>;
    return Object.keys(rest).length === 0 && typeof valor === 'string' && MONEY.test(valor) && (modalidade === undefined || (Number.isInteger(modalidade) && (modalidade as number) >= 1 && (modalidade as number) <= 8));
  });
}
