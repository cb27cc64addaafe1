// Parsing of individual query-string values: single-valued access, RFC 3339 timestamps and
// decimal integers, each reporting problems as `Violacao`s named after the parameter.
import { Violacao } from '../problem';
import { formatValor } from './violation-text';
import { daysInMonth, INT32_MAX, INT32_MIN } from './patterns';

export type QueryInput = Record<string, string | string[] | undefined>;

export function parametroInvalido(name: string, value: unknown): Violacao {
  const v: Violacao = { razao: `O parâmetro ${name} não respeita o _schema_.`, propriedade: name };
  const valor = formatValor(value);
  if (valor !== undefined) v.valor = valor;
  return v;
}

/**
 * The single value of parameter `name`, or undefined when absent. A parameter given more than
 * once is ambiguous: it is reported and treated as absent (returns null).
 */
export function singleValue(query: QueryInput, name: string, out: Violacao[]): string | undefined | null {
  if (!Object.prototype.hasOwnProperty.call(query, name)) return undefined;
  const raw: unknown = query[name];
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) {
    if (raw.length === 0) return undefined;
    if (raw.length === 1 && typeof raw[0] === 'string') return raw[0];
    out.push({ razao: `O parâmetro ${name} foi informado mais de uma vez.`, propriedade: name });
    return null;
  }
  if (typeof raw !== 'string') {
    out.push(parametroInvalido(name, raw));
    return null;
  }
  return raw;
}

// `time-secfrac = "." 1*DIGIT`: any number of digits (a request's size bounds them).
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 instant told exactly: the millisecond at or below it, and the digits of its
 * fraction past the millisecond ('' when it is on a millisecond; trailing zeros dropped).
 */
export interface Rfc3339Instant {
  floor: Date;
  beyondMillisecond: string;
}

/** RFC 3339 `date-time` (offset mandatory, leap second 60 accepted), exactly; null if invalid. */
export function parseRfc3339Instant(s: string): Rfc3339Instant | null {
  const m = RFC3339.exec(s);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 60) return null;
  const fraction = m[7] ?? '';
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0'));
  let offsetMinutes = 0;
  if (!m[8]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0..99 to 1900..1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, Math.min(second, 59), millis);
  // A leap second is the instant right after hh:mm:59.
  const ms = date.getTime() + (second === 60 ? 1000 : 0) - offsetMinutes * 60_000;
  return Number.isNaN(ms) ? null : { floor: new Date(ms), beyondMillisecond: fraction.slice(3).replace(/0+$/, '') };
}

/** RFC 3339 `date-time` → Date, to the millisecond at or below it; null if invalid. */
export function parseRfc3339(s: string): Date | null {
  return parseRfc3339Instant(s)?.floor ?? null;
}

/** The first millisecond at or above the instant. */
export const millisecondAtOrAbove = (i: Rfc3339Instant): Date => (i.beyondMillisecond === '' ? i.floor : new Date(i.floor.getTime() + 1));

/** Exact order of two instants (negative, zero or positive), digits past the millisecond included. */
export function compareInstants(a: Rfc3339Instant, b: Rfc3339Instant): number {
  const byMillisecond = a.floor.getTime() - b.floor.getTime();
  if (byMillisecond !== 0) return byMillisecond;
  const width = Math.max(a.beyondMillisecond.length, b.beyondMillisecond.length);
  const [x, y] = [a.beyondMillisecond.padEnd(width, '0'), b.beyondMillisecond.padEnd(width, '0')];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Decimal int32 ("-12", "0", "42"); null for anything else or out of range. */
export function parseInt32(s: string): number | null {
  if (!/^-?\d{1,10}$/.test(s)) return null;
  const n = Number(s) + 0; // "+ 0" turns -0 into 0
  return n >= INT32_MIN && n <= INT32_MAX ? n : null;
}
