/**
 * The one reader of integer settings for both apps (and the libraries' settings they load).
 * Decimal digits only: Number() also took "0x10", "1e3" and "1.5", so PORT=0x4B8D listened on
 * 19341 and RATE_LIMIT_PER_SECOND=0x10 meant 16/s (operator audit, 2026-11-27). Unset or empty
 * is the documented default; anything else (a sign, spaces, a fraction, an exponent) is refused
 * with one line naming the variable, collected in `problems` with the other bad values.
 * Returns NaN when refused, so a value derived from it (LOCATION_HOST from PORT) can tell.
 */
export function readIntegerSetting(
  env: Record<string, string | undefined>,
  name: string,
  range: { fallback: number; min: number; max: number },
  problems: string[],
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return range.fallback;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (n >= range.min && n <= range.max) return n;
  problems.push(`${name} must be an integer from ${range.min} to ${range.max}, got "${raw}"`);
  return NaN;
}
