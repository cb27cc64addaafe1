// Wire formats of the API Pix 2.9.0, written as anchored regexes. The YAML spells some patterns
// as regex literals ("/^\\d{11}$/") and leaves others unanchored ("\\d{1,10}\\.\\d{2}"); the
// standing decision is to read all of them as whole-string matches.

export const CONTRACT_PATTERNS = {
  /** CPF: exactly 11 digits (check digits are the domain's business). */
  cpf: /^\d{11}$/,
  /** CNPJ: 14 chars of [0-9A-Z] (alphanumeric CNPJ). */
  cnpj: /^[0-9A-Z]{14}$/,
  /** Amounts and `valorPerc`: 1 to 10 integer digits, exactly 2 decimals. */
  money: /^\d{1,10}\.\d{2}$/,
  /** `format: date` (ISO 8601 full-date); calendar validity is checked separately. */
  date: /^(\d{4})-(\d{2})-(\d{2})$/,
  /**
   * The txid of a received Pix (`Pix.txid`, the `txid` filter of GET /pix): 1 to 35 letters and
   * digits, since a static QR code's txid has 1 to 25 (ADR 4). A charge's own txid is 26 to 35.
   */
  pixTxid: /^[a-zA-Z0-9]{1,35}$/,
} as const;

export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

const isLeapYear = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Days in month `m` (1..12) of year `y`, Gregorian. */
export function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** True for a string "YYYY-MM-DD" naming a day that exists (format `date` of JSON Schema). */
export function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const m = CONTRACT_PATTERNS.date.exec(value);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(Number(m[1]), month);
}
