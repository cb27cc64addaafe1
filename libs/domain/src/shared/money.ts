// Money and percentages as the API Pix puts them on the wire ("123.45"), held internally as
// integers (cents, hundredths of a percent) so no arithmetic ever happens on binary fractions.

/** Wire format of amounts and of `valorPerc` fields: 1 to 10 integer digits, exactly 2 decimals. */
export const MONEY_PATTERN = /^\d{1,10}\.\d{2}$/;

/** Largest value the wire format can carry, in cents (9999999999.99). */
export const MAX_WIRE_CENTS = 999_999_999_999;

// Both cents and hundredths of a percent share the same "d.dd" wire shape.
function parseFixed2(s: unknown): number | null {
  if (typeof s !== 'string' || !MONEY_PATTERN.test(s)) return null;
  const dot = s.length - 3;
  return Number(s.slice(0, dot)) * 100 + Number(s.slice(dot + 1));
}

function formatFixed2(units: number, what: string): string {
  if (!Number.isSafeInteger(units) || units < 0 || units > MAX_WIRE_CENTS) {
    throw new RangeError(`${what} must be an integer between 0 and ${MAX_WIRE_CENTS}, got ${units}`);
  }
  const whole = Math.floor(units / 100);
  const frac = units % 100;
  return `${whole}.${frac < 10 ? '0' : ''}${frac}`;
}

/** "123.45" → 12345; null when `s` is not a string of exactly the wire form. */
export function parseMoney(s: unknown): number | null {
  return parseFixed2(s);
}

/** 12345 → "123.45". Throws RangeError for non-integers, negatives or values the wire cannot carry. */
export function formatMoney(cents: number): string {
  return formatFixed2(cents, 'cents');
}

/** "2.50" (percent) → 250 hundredths of a percent; null when malformed. */
export function parsePercent(s: unknown): number | null {
  return parseFixed2(s);
}

/** 250 hundredths of a percent → "2.50". */
export function formatPercent(hundredths: number): string {
  return formatFixed2(hundredths, 'hundredths of a percent');
}

function assertNonNegativeInteger(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a non-negative safe integer, got ${n}`);
}

/**
 * round_half_up(product(factors) / divisor) for non-negative integers. Done in BigInt because
 * intermediate products (cents × rate × days) easily pass 2^53.
 */
export function mulDivRoundHalfUp(factors: readonly number[], divisor: number): number {
  factors.forEach((f) => assertNonNegativeInteger(f, 'factor'));
  assertNonNegativeInteger(divisor, 'divisor');
  if (divisor === 0) throw new RangeError('divisor must not be zero');
  const num = factors.reduce((acc, f) => acc * BigInt(f), 1n);
  const den = BigInt(divisor);
  const result = (num * 2n + den) / (den * 2n);
  if (result > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('result exceeds the safe integer range');
  return Number(result);
}

/** `hundredths` percent of `cents`, rounded half-up to the cent: percentOfCents(1000, 250) → 25. */
export function percentOfCents(cents: number, hundredths: number): number {
  return mulDivRoundHalfUp([cents, hundredths], 10_000);
}
