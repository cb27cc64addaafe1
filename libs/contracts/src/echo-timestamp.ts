/**
 * The filter's instant in the wire form (UTC, milliseconds). A valid RFC 3339 value can name an
 * instant outside years 0000-9999 UTC (`9999-12-31T23:59:59-03:00`), which has no such form
 * (toISOString gives `+010000-...`): then the client's own, already validated, text is echoed.
 */
export function echoTimestamp(instant: Date, raw: string | string[] | undefined): string {
  const iso = instant.toISOString();
  return /^\d{4}-/.test(iso) ? iso : String(Array.isArray(raw) ? raw[0] : raw);
}
