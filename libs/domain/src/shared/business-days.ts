// Business days for amounts due: Mon–Fri that are not national holidays, bank holidays (days the
// Brazilian banking calendar closes: Carnival Monday and Tuesday, Good Friday, Corpus Christi) or,
// when the payer's municipality is known (IBGE `codMun`), a holiday of that city or its state.
// Pure and deterministic: Easter is computed, nothing is read from outside.
import { fromEpochDay, isValidIsoDate, toEpochDay } from './dates';
import { municipalHolidays } from './municipal-holidays';

/** What the amount-due rules need from a calendar. Callers may pass their own (a PSP's list). */
export interface BusinessCalendar {
  isBusinessDay(date: string): boolean;
  /** Holidays (YYYY-MM-DD) of `year`, weekends excluded or not: only weekdays among them matter. */
  holidaysOf(year: number): ReadonlySet<string>;
}

const CODMUN_PATTERN = /^\d{7}$/;

/** Easter Sunday of a Gregorian year (anonymous Gregorian algorithm, Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  if (!Number.isSafeInteger(year) || year < 1583 || year > 9999) throw new RangeError(`year must be 1583..9999, got ${year}`);
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const pad = (year: number): string => String(year).padStart(4, '0');

function computeNational(year: number): Set<string> {
  const y = pad(year);
  const fixed = ['01-01', '04-21', '05-01', '09-07', '11-02', '11-15', '12-25'];
  if (year >= 1980) fixed.push('10-12'); // Lei 6.802/1980
  if (year >= 2024) fixed.push('11-20'); // Lei 14.759/2023
  const days = new Set(fixed.map((md) => `${y}-${md}`));
  if (year >= 1583) {
    const easter = toEpochDay(easterSunday(year));
    for (const offset of [-48, -47, -2, 60]) days.add(fromEpochDay(easter + offset)); // Carnival Mon/Tue, Good Friday, Corpus Christi
  }
  return days;
}

const nationalCache = new Map<number, ReadonlySet<string>>();

/** National and bank holidays of `year` (YYYY-MM-DD). */
export function nationalHolidays(year: number): ReadonlySet<string> {
  let days = nationalCache.get(year);
  if (!days) {
    days = computeNational(year);
    nationalCache.set(year, days);
  }
  return days;
}

const isWeekendEpoch = (day: number): boolean => {
  const dow = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
  return dow === 0 || dow === 6;
};

const calendarOf = (local: readonly string[]): BusinessCalendar => {
  const holidaysOf = (year: number): ReadonlySet<string> => {
    const national = nationalHolidays(year);
    if (local.length === 0) return national;
    return new Set([...national, ...local.map((md) => `${pad(year)}-${md}`)]);
  };
  return {
    holidaysOf,
    isBusinessDay(date: string): boolean {
      const day = toEpochDay(date);
      return !isWeekendEpoch(day) && !holidaysOf(Number(date.slice(0, 4))).has(date);
    },
  };
};

export const NATIONAL_CALENDAR: BusinessCalendar = calendarOf([]);

/** One calendar per distinct list of local days (a handful): their per-year counts are kept (weekdayHolidaysOf). */
const localCalendars = new Map<string, BusinessCalendar>();

/**
 * The calendar of a payer in `codMun` (7-digit IBGE code): national and bank holidays, plus the
 * holidays of that city and of its state (the code's first two digits) our built-in table knows.
 * Without codMun, or where the table knows none, national and bank holidays only.
 */
export function calendarFor(codMun?: string): BusinessCalendar {
  if (codMun === undefined) return NATIONAL_CALENDAR;
  if (!CODMUN_PATTERN.test(codMun)) throw new RangeError(`codMun must be 7 digits, got "${codMun}"`);
  const local = municipalHolidays(codMun);
  if (local.length === 0) return NATIONAL_CALENDAR;
  const key = local.join(',');
  let calendar = localCalendars.get(key);
  if (!calendar) localCalendars.set(key, (calendar = calendarOf(local)));
  return calendar;
}

/** True for an existing date that is neither a weekend nor a holiday of `calendar`. */
export function isBusinessDay(date: string, calendar: BusinessCalendar = NATIONAL_CALENDAR): boolean {
  if (!isValidIsoDate(date)) throw new RangeError(`not a valid YYYY-MM-DD date: "${date}"`);
  return calendar.isBusinessDay(date);
}

/** `date` itself when it is a business day, else the first business day after it. */
export function businessDayOnOrAfter(date: string, calendar: BusinessCalendar = NATIONAL_CALENDAR): string {
  let day = toEpochDay(date);
  let current = date;
  // A run of non-business days is short (Carnival: Sat–Tue); the bound only guards a broken calendar.
  for (let i = 0; i < 366; i++, day++) {
    current = fromEpochDay(day);
    if (calendar.isBusinessDay(current)) return current;
  }
  throw new RangeError(`no business day within a year of ${date}`);
}

/**
 * Number of business days d with a < d ≤ b (0 when b ≤ a). Weekdays are counted arithmetically and
 * the weekday holidays of each year in between subtracted, so long spans cost little.
 */
export function businessDaysBetween(a: string, b: string, calendar: BusinessCalendar = NATIONAL_CALENDAR): number {
  const start = toEpochDay(a);
  const end = toEpochDay(b);
  if (end <= start) return 0;
  let count = weekdaysIn(start, end);
  const first = Number(a.slice(0, 4));
  const last = Number(b.slice(0, 4));
  for (let year = first; year <= last; year++) {
    // A year wholly inside the span loses all its weekday holidays: a count kept per calendar
    // (a charge that never expires is priced up to 9999 on every request otherwise).
    if (year > first && year < last) {
      count -= weekdayHolidaysOf(calendar, year);
      continue;
    }
    for (const h of calendar.holidaysOf(year)) {
      const day = toEpochDay(h);
      if (day > start && day <= end && !isWeekendEpoch(day)) count--;
    }
  }
  return count;
}

/** Counts per calendar object and year: a few integers each, however far the years go. */
const weekdayHolidayCounts = new WeakMap<BusinessCalendar, Map<number, number>>();

function weekdayHolidaysOf(calendar: BusinessCalendar, year: number): number {
  let counts = weekdayHolidayCounts.get(calendar);
  if (!counts) weekdayHolidayCounts.set(calendar, (counts = new Map()));
  let n = counts.get(year);
  if (n === undefined) {
    n = 0;
    const prefix = `${pad(year)}-`;
    for (const h of calendar.holidaysOf(year)) if (h.startsWith(prefix) && !isWeekendEpoch(toEpochDay(h))) n++;
    counts.set(year, n);
  }
  return n;
}

function weekdaysIn(start: number, end: number): number {
  const total = end - start;
  let count = Math.floor(total / 7) * 5;
  for (let d = start + Math.floor(total / 7) * 7 + 1; d <= end; d++) if (!isWeekendEpoch(d)) count++;
  return count;
}
