// Calendar dates as "YYYY-MM-DD" strings. All arithmetic goes through a day count
// (days since 1970-01-01, proleptic Gregorian) computed with integer math, so nothing here
// depends on the process's local time zone.

const ISO_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export const DEFAULT_BUSINESS_TIME_ZONE = 'America/Sao_Paulo';

const isLeapYear = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

function parts(s: string): [number, number, number] | null {
  const m = typeof s === 'string' ? ISO_DATE_PATTERN.exec(s) : null;
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return [y, mo, d];
}

function partsOrThrow(s: string): [number, number, number] {
  const p = parts(s);
  if (!p) throw new RangeError(`not a valid YYYY-MM-DD date: "${s}"`);
  return p;
}

/** True for an existing calendar date in strict YYYY-MM-DD form (leap years honoured). */
export function isValidIsoDate(s: string): boolean {
  return parts(s) !== null;
}

/** Days since 1970-01-01 (Howard Hinnant's days_from_civil). Throws on an invalid date. */
export function toEpochDay(date: string): number {
  const [y0, m, d] = partsOrThrow(date);
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Inverse of toEpochDay (civil_from_days). Throws when the year leaves 0000..9999. */
export function fromEpochDay(n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`epoch day must be an integer, got ${n}`);
  const z = n + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  if (y < 0 || y > 9999) throw new RangeError(`date out of the YYYY range: year ${y}`);
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** `date` moved by `n` calendar days (n may be negative). */
export function addDays(date: string, n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`days must be an integer, got ${n}`);
  return fromEpochDay(toEpochDay(date) + n);
}

/** b − a in calendar days: daysBetween('2024-02-28', '2024-03-01') → 2. */
export function daysBetween(a: string, b: string): number {
  return toEpochDay(b) - toEpochDay(a);
}

/** -1, 0 or 1, usable as a sort comparator. */
export function compareDates(a: string, b: string): -1 | 0 | 1 {
  return Math.sign(daysBetween(b, a)) as -1 | 0 | 1;
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function dayOfWeek(date: string): number {
  return (((toEpochDay(date) + 4) % 7) + 7) % 7;
}

/** Monday to Friday. Holidays are NOT known here; callers needing them must add a calendar. */
export function isWeekday(date: string): boolean {
  const dow = dayOfWeek(date);
  return dow !== 0 && dow !== 6;
}

/** Number of Mon–Fri dates d with a < d ≤ b (0 when b ≤ a). */
export function weekdaysBetween(a: string, b: string): number {
  const start = toEpochDay(a);
  const total = toEpochDay(b) - start;
  if (total <= 0) return 0;
  let count = Math.floor(total / 7) * 5; // every full week holds five weekdays
  const startDow = (((start + 4) % 7) + 7) % 7;
  for (let i = 1; i <= total % 7; i++) {
    const dow = (startDow + i) % 7;
    if (dow !== 0 && dow !== 6) count++;
  }
  return count;
}

// Intl formatters are costly to build; one per zone is enough.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', calendar: 'gregory', numberingSystem: 'latn' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The civil date in `timeZone` at `instant`, e.g. 2024-03-01T02:00Z → "2024-02-29" in São Paulo. */
export function businessDateOf(instant: Date, timeZone: string = DEFAULT_BUSINESS_TIME_ZONE): string {
  if (!(instant instanceof Date) || Number.isNaN(instant.getTime())) throw new RangeError('instant must be a valid Date');
  // Keeps clear of year 0 / BC, which Intl renders with an era rather than a signed year.
  const utcYear = instant.getUTCFullYear();
  if (utcYear < 1 || utcYear > 9999) throw new RangeError(`instant outside years 0001..9999: ${instant.toISOString()}`);
  // Since 1972 every zone's offset is whole minutes (older local mean times had seconds), so a
  // minute has one civil date: the last one is kept per zone (every request asks for "today",
  // and formatToParts showed in the profile).
  const minute = instant.getTime() >= WHOLE_MINUTE_OFFSETS_SINCE ? Math.floor(instant.getTime() / 60_000) : undefined;
  const last = lastDates.get(timeZone);
  if (minute !== undefined && last?.minute === minute) return last.date;
  const got: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(instant)) got[p.type] = p.value;
  const date = `${got.year.padStart(4, '0')}-${got.month}-${got.day}`;
  if (!isValidIsoDate(date)) throw new RangeError(`instant outside the YYYY-MM-DD range: ${instant.toISOString()}`);
  if (minute !== undefined) lastDates.set(timeZone, { minute, date });
  return date;
}

const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(1972, 0, 1);
const lastDates = new Map<string, { minute: number; date: string }>();
