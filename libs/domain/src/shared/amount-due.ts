// What a due charge (cobv) costs on a given payment date, from the `valor` block of the API Pix:
// original + multa + juros − abatimento − desconto. All amounts are integer cents, all
// percentages integer hundredths of a percent ("2.50" → 250).
//
// Our reading of the points the BCB text leaves open:
// - Every percentage applies to `original` (not to original − abatimento).
// - Late/early day counts are whole calendar dates between dataDeVencimento and the payment date.
//   "Business days" are Mon–Fri WITHOUT holidays (no national/bank holiday calendar here yet);
//   they are counted as weekdays d with earlier < d ≤ later.
// - A due date falling on a weekend is not moved: paying the next Monday is late.
// - Juros per month/year are simple interest pro rata: month = 30 calendar / 21 business days,
//   year = 365 calendar / 252 business days (the usual Brazilian bases).
// - Each component is rounded half-up to the cent on its own; `final` is clamped at zero but the
//   components are reported unclamped so a reader can see where a zero came from.
// - Fixed-date discounts: the list is sorted by date and the earliest date ≥ payment date wins.
import { daysBetween, isValidIsoDate, weekdaysBetween, addDays, compareDates } from './dates';
import { mulDivRoundHalfUp, percentOfCents } from './money';

/** 1 = fixed value (cents), 2 = percent of the original (hundredths). */
export interface Multa { modalidade: 1 | 2; valorPerc: number }

/**
 * 1 value/calendar day, 2 %/calendar day, 3 %/month (calendar days), 4 %/year (calendar days),
 * 5–8 the same on business days. Value in cents for 1 and 5, hundredths of a percent otherwise.
 */
export interface Juros { modalidade: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8; valorPerc: number }

/** 1 = fixed value (cents), 2 = percent of the original (hundredths). */
export interface Abatimento { modalidade: 1 | 2; valorPerc: number }

export interface DescontoDataFixa { data: string; valorPerc: number }

/**
 * 1 fixed value / 2 percent until the listed dates (up to 3); 3 value per calendar day and
 * 4 value per business day of anticipation; 5 percent per calendar day, 6 percent per business day.
 */
export type Desconto =
  | { modalidade: 1 | 2; descontoDataFixa: readonly DescontoDataFixa[] }
  | { modalidade: 3 | 4 | 5 | 6; valorPerc: number };

export interface DueChargeValue {
  original: number;
  multa?: Multa;
  juros?: Juros;
  abatimento?: Abatimento;
  desconto?: Desconto;
}

export interface AmountDueInput {
  valor: DueChargeValue;
  dataDeVencimento: string;
  /** Days after the due date the charge can still be paid; the API Pix default is 30. */
  validadeAposVencimento?: number;
  paymentDate: string;
}

export interface AmountDue { original: number; multa: number; juros: number; abatimento: number; desconto: number; final: number }

export const DEFAULT_VALIDADE_APOS_VENCIMENTO = 30;
const PERCENT = 10_000; // hundredths of a percent in a whole
const MONTH_DAYS = { calendar: 30, business: 21 };
const YEAR_DAYS = { calendar: 365, business: 252 };

function assertCount(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a non-negative integer, got ${n}`);
}

function assertDate(s: string, what: string): void {
  if (!isValidIsoDate(s)) throw new RangeError(`${what} must be a YYYY-MM-DD date, got "${s}"`);
}

// Types say what is allowed; this guards values that arrived from JSON without a validator.
function assertValor(valor: DueChargeValue): void {
  assertCount(valor.original, 'valor.original');
  const checks: [{ modalidade: number } | undefined, number, string][] = [
    [valor.multa, 2, 'multa'], [valor.juros, 8, 'juros'], [valor.abatimento, 2, 'abatimento'], [valor.desconto, 6, 'desconto'],
  ];
  for (const [part, max, name] of checks) {
    if (!part) continue;
    if (!Number.isInteger(part.modalidade) || part.modalidade < 1 || part.modalidade > max) {
      throw new RangeError(`${name}.modalidade must be 1..${max}, got ${part.modalidade}`);
    }
    if ('valorPerc' in part) assertCount(part.valorPerc as number, `${name}.valorPerc`);
  }
  if (valor.desconto && (valor.desconto.modalidade === 1 || valor.desconto.modalidade === 2)) {
    if (!Array.isArray(valor.desconto.descontoDataFixa)) throw new RangeError('desconto modalidade 1/2 needs descontoDataFixa');
    for (const d of valor.desconto.descontoDataFixa) {
      assertDate(d.data, 'descontoDataFixa.data');
      assertCount(d.valorPerc, 'descontoDataFixa.valorPerc');
    }
  }
}

const valueOrPercent = (original: number, modalidade: 1 | 2, valorPerc: number): number =>
  modalidade === 1 ? valorPerc : percentOfCents(original, valorPerc);

function jurosOf(original: number, juros: Juros, due: string, paid: string): number {
  const business = juros.modalidade >= 5;
  const days = business ? weekdaysBetween(due, paid) : daysBetween(due, paid);
  const kind = business ? 'business' : 'calendar';
  switch (juros.modalidade) {
    case 1: case 5: return mulDivRoundHalfUp([juros.valorPerc, days], 1);
    case 2: case 6: return mulDivRoundHalfUp([original, juros.valorPerc, days], PERCENT);
    case 3: case 7: return mulDivRoundHalfUp([original, juros.valorPerc, days], PERCENT * MONTH_DAYS[kind]);
    case 4: case 8: return mulDivRoundHalfUp([original, juros.valorPerc, days], PERCENT * YEAR_DAYS[kind]);
    default: throw new RangeError(`unknown juros modalidade ${(juros as Juros).modalidade}`);
  }
}

function descontoOf(original: number, desconto: Desconto, due: string, paid: string): number {
  switch (desconto.modalidade) {
    case 1: case 2: {
      const sorted = [...desconto.descontoDataFixa].sort((a, b) => compareDates(a.data, b.data));
      const hit = sorted.find((d) => compareDates(d.data, paid) >= 0);
      return hit ? valueOrPercent(original, desconto.modalidade, hit.valorPerc) : 0;
    }
    case 3: return mulDivRoundHalfUp([desconto.valorPerc, daysBetween(paid, due)], 1);
    case 4: return mulDivRoundHalfUp([desconto.valorPerc, weekdaysBetween(paid, due)], 1);
    case 5: return mulDivRoundHalfUp([original, desconto.valorPerc, daysBetween(paid, due)], PERCENT);
    case 6: return mulDivRoundHalfUp([original, desconto.valorPerc, weekdaysBetween(paid, due)], PERCENT);
    default: throw new RangeError(`unknown desconto modalidade ${(desconto as Desconto).modalidade}`);
  }
}

/**
 * The breakdown due when paying on `paymentDate`, or null once the charge has expired
 * (paymentDate > dataDeVencimento + validadeAposVencimento). Throws RangeError on malformed input.
 */
export function amountDue(input: AmountDueInput): AmountDue | null {
  const { valor, dataDeVencimento: due, paymentDate: paid } = input;
  const validade = input.validadeAposVencimento ?? DEFAULT_VALIDADE_APOS_VENCIMENTO;
  assertDate(due, 'dataDeVencimento');
  assertDate(paid, 'paymentDate');
  assertCount(validade, 'validadeAposVencimento');
  assertValor(valor);

  if (compareDates(paid, addDays(due, validade)) > 0) return null;

  const original = valor.original;
  const late = compareDates(paid, due) > 0;
  const multa = late && valor.multa ? valueOrPercent(original, valor.multa.modalidade, valor.multa.valorPerc) : 0;
  const juros = late && valor.juros ? jurosOf(original, valor.juros, due, paid) : 0;
  const desconto = !late && valor.desconto ? descontoOf(original, valor.desconto, due, paid) : 0;
  const abatimento = valor.abatimento ? valueOrPercent(original, valor.abatimento.modalidade, valor.abatimento.valorPerc) : 0;
  const final = Math.max(0, original + multa + juros - abatimento - desconto);
  return { original, multa, juros, abatimento, desconto, final };
}
