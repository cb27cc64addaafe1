/**
 * The filter's instant in the wire form (UTC, milliseconds). parseRfc3339Instant refuses an
 * instant outside years 0000-9999 UTC, which has no such form (toISOString gives `+010000-...`).
 */
export function echoTimestamp(instant: Date): string {
  return instant.toISOString();
}
