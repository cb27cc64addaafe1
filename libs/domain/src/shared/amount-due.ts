// What a due charge (cobv) costs on a given payment date (the payer's DPP), from the `valor` block
// of the API Pix, following the BCB's Manual de Padrões para Iniciação do Pix and the contract's
// `validadeAposVencimento` text (ADR 4, "Amounts due"). All amounts are integer cents, all
// percentages integer hundredths of a percent ("2.50" → 250).
// - A due date on a non-business day (weekend, national/bank holiday, holiday of the payer's
//   codMun) is moved to the next business day V*; every rule below reads V* (the contract: "todos
//   os campos que façam referência a esta data ... devem assumir essa prorrogação").
// - Paid on or before V*: no multa, no juros. Penalties start on S, the first business day after
//   V* (the BCB: fine and interest begin "a partir do próximo dia útil após a data de vencimento
//   ajustada"; none on a non-business day): paid in (V*, S), the original is due, without
//   discounts. From S: multa once (flat), juros per day of delay Dα = calendar days V*→DPP
//   (modalidades 1–4) or business days in (V*, DPP] (5–8).
// - Juros follow Equação 11, Vj = (Vo − Va) × ((Ij/100)/n) × Dα, n = 1/30/365 (calendar) or
//   1/21/252 (business) for a rate per day/month/year; value modalidades are Ij × Dα.
// - Percent multa and percent discounts apply to Vo − Va too; percent abatimento to Vo.
// - Discounts only up to V*: fixed-date tiers (a tier's date D on a non-business day extends it
//   to the next business day; the payer gets the best of the tier current on DPP, the earliest
//   D ≥ DPP, and of those current on each D that DPP falls in the extension of); per-day discounts
//   count days of anticipation DPP→V* (calendar) or business days in [DPP, V*).
// - Payable until the first business day on or after V* + validadeAposVencimento; null after.
// - Each component is the exact rational value rounded half-up to the cent once (no rounded
//   factors); final = Vo − Va − Vd + Vj + Vm, clamped at zero, components reported unclamped.
import { daysBetween, isValidIsoDate, compareDates, toEpochDay, fromEpochDay } from './dates';
import { mulDivRoundHalfUp, percentOfCents } from './money';
import { BusinessCalendar, businessDayOnOrAfter, businessDaysBetween, calendarFor } from './business-days';

/** 1 = fixed value (cents), 2 = percent of original − abatimento (hundredths). */
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
 * Percentages apply to original − abatimento.
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
  /** Calendar days after the (adjusted) due date the charge can still be paid; API Pix default 30. */
  validadeAposVencimento?: number;
  /** The payer's intended payment date (DPP). */
  paymentDate: string;
  /** IBGE code (7 digits) of the payer's municipality: its holidays are not business days. */
  codMun?: string;
  /** A calendar of one's own (say, a PSP's full municipal list); overrides codMun's built-in one. */
  calendar?: BusinessCalendar;
}

export interface AmountDue { original: number; multa: number; juros: number; abatimento: number; desconto: number; final: number }

export const DEFAULT_VALIDADE_APOS_VENCIMENTO = 30;
const PERCENT = 10_000; // hundredths of a percent in a whole
const PER = { day: 1, month: { calendar: 30, business: 21 }, year: { calendar: 365, business: 252 } };
const LAST_EPOCH_DAY = toEpochDay('9999-12-31');

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

const valueOrPercent = (base: number, modalidade: 1 | 2, valorPerc: number): number =>
  modalidade === 1 ? valorPerc : percentOfCents(base, valorPerc);

/** Juros after V*; `base` is Vo − Va (Equação 11). */
function jurosOf(base: number, juros: Juros, adjustedDue: string, paid: string, calendar: BusinessCalendar): number {
  const business = juros.modalidade >= 5;
  const days = business ? businessDaysBetween(adjustedDue, paid, calendar) : daysBetween(adjustedDue, paid);
  const kind = business ? 'business' : 'calendar';
  switch (juros.modalidade) {
    case 1: case 5: return mulDivRoundHalfUp([juros.valorPerc, days], 1);
    case 2: case 6: return mulDivRoundHalfUp([base, juros.valorPerc, days], PERCENT * PER.day);
    case 3: case 7: return mulDivRoundHalfUp([base, juros.valorPerc, days], PERCENT * PER.month[kind]);
    case 4: case 8: return mulDivRoundHalfUp([base, juros.valorPerc, days], PERCENT * PER.year[kind]);
    default: throw new RangeError(`unknown juros modalidade ${(juros as Juros).modalidade}`);
  }
}

/** Business days d with paid ≤ d < adjustedDue (V* is itself a business day): days paid early. */
function businessDaysEarly(paid: string, adjustedDue: string, calendar: BusinessCalendar): number {
  if (compareDates(paid, adjustedDue) >= 0) return 0;
  return businessDaysBetween(paid, adjustedDue, calendar) - 1 + (calendar.isBusinessDay(paid) ? 1 : 0);
}

/** The tier current on `day` by the dates as written: the earliest date ≥ day (of equal dates, the larger). */
function tierOn(tiers: readonly DescontoDataFixa[], day: string): DescontoDataFixa | undefined {
  let best: DescontoDataFixa | undefined;
  for (const t of tiers) {
    if (compareDates(t.data, day) < 0) continue;
    const order = best === undefined ? -1 : compareDates(t.data, best.data);
    if (order < 0 || (order === 0 && t.valorPerc > best!.valorPerc)) best = t;
  }
  return best;
}

/**
 * The fixed-date discount (its valorPerc) for paying on `paid`. A tier whose date D is not a
 * business day stays good until the next business day, so a payment in that extension counts as
 * made on D; the extension protects the payer and never takes away the tier current on `paid`
 * itself (tiers Sat 10.00 and Sun 20.00, paid on Sunday: 20.00).
 */
function fixedDateTier(tiers: readonly DescontoDataFixa[], paid: string, calendar: BusinessCalendar): number | undefined {
  let best = tierOn(tiers, paid)?.valorPerc;
  for (const t of tiers) {
    if (compareDates(t.data, paid) >= 0 || compareDates(businessDayOnOrAfter(t.data, calendar), paid) < 0) continue;
    const asOfD = tierOn(tiers, t.data)!.valorPerc;
    if (best === undefined || asOfD > best) best = asOfD;
  }
  return best;
}

/** Desconto up to V*; `base` is Vo − Va. */
function descontoOf(base: number, desconto: Desconto, adjustedDue: string, paid: string, calendar: BusinessCalendar): number {
  switch (desconto.modalidade) {
    case 1: case 2: {
      const hit = fixedDateTier(desconto.descontoDataFixa, paid, calendar);
      return hit === undefined ? 0 : valueOrPercent(base, desconto.modalidade, hit);
    }
    case 3: return mulDivRoundHalfUp([desconto.valorPerc, daysBetween(paid, adjustedDue)], 1);
    case 4: return mulDivRoundHalfUp([desconto.valorPerc, businessDaysEarly(paid, adjustedDue, calendar)], 1);
    case 5: return mulDivRoundHalfUp([base, desconto.valorPerc, daysBetween(paid, adjustedDue)], PERCENT);
    case 6: return mulDivRoundHalfUp([base, desconto.valorPerc, businessDaysEarly(paid, adjustedDue, calendar)], PERCENT);
    default: throw new RangeError(`unknown desconto modalidade ${(desconto as Desconto).modalidade}`);
  }
}

/** The due date moved to the next business day when it is not one (V*). */
export function adjustedDueDate(dataDeVencimento: string, calendar: BusinessCalendar = calendarFor()): string {
  assertDate(dataDeVencimento, 'dataDeVencimento');
  return businessDayOnOrAfter(dataDeVencimento, calendar);
}

/** S: the first business day after V*, the day fine and interest start. */
export function firstBusinessDayAfter(vStar: string, calendar: BusinessCalendar = calendarFor()): string {
  return businessDayOnOrAfter(fromEpochDay(toEpochDay(vStar) + 1), calendar);
}

/**
 * The last date the charge can be paid: V* + validadeAposVencimento calendar days, moved to the
 * next business day when it is not one (the contract's examples A–G); null when that lies beyond 9999.
 */
export function lastDayOfValidity(dataDeVencimento: string, validadeAposVencimento: number = DEFAULT_VALIDADE_APOS_VENCIMENTO, calendar: BusinessCalendar = calendarFor()): string | null {
  assertCount(validadeAposVencimento, 'validadeAposVencimento');
  const end = toEpochDay(adjustedDueDate(dataDeVencimento, calendar)) + validadeAposVencimento;
  if (end > LAST_EPOCH_DAY - 366) return null; // no date we can write lies after it
  return businessDayOnOrAfter(fromEpochDay(end), calendar);
}

/**
 * The breakdown due when paying on `paymentDate`, or null once the charge has expired
 * (paymentDate after lastDayOfValidity). Throws RangeError on malformed input.
 */
export function amountDue(input: AmountDueInput): AmountDue | null {
  const { valor, dataDeVencimento: due, paymentDate: paid } = input;
  const validade = input.validadeAposVencimento ?? DEFAULT_VALIDADE_APOS_VENCIMENTO;
  assertDate(due, 'dataDeVencimento');
  assertDate(paid, 'paymentDate');
  assertCount(validade, 'validadeAposVencimento');
  assertValor(valor);
  const calendar = input.calendar ?? calendarFor(input.codMun);

  const last = lastDayOfValidity(due, validade, calendar);
  if (last !== null && compareDates(paid, last) > 0) return null;

  const original = valor.original;
  const vStar = adjustedDueDate(due, calendar);
  const early = compareDates(paid, vStar) <= 0;
  const late = !early && compareDates(paid, firstBusinessDayAfter(vStar, calendar)) >= 0;
  const abatimento = valor.abatimento ? valueOrPercent(original, valor.abatimento.modalidade, valor.abatimento.valorPerc) : 0;
  const base = Math.max(0, original - abatimento); // Vo − Va
  const multa = late && valor.multa ? valueOrPercent(base, valor.multa.modalidade, valor.multa.valorPerc) : 0;
  const juros = late && valor.juros ? jurosOf(base, valor.juros, vStar, paid, calendar) : 0;
  const desconto = early && valor.desconto ? descontoOf(base, valor.desconto, vStar, paid, calendar) : 0;
  const final = Math.max(0, original - abatimento - desconto + juros + multa);
  return { original, multa, juros, abatimento, desconto, final };
}
