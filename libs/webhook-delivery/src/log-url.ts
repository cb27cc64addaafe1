/**
 * A target URL as the logs show it: scheme, host, port and path. The query and fragment are
 * dropped (receivers often authenticate callbacks with a query token, and the official callback
 * `{webhookUrl}/pix` puts "/pix" after it), leaving "?…" (and "#…") so an operator knows there was one;
 * userinfo is dropped too.
 */
export function urlForLog(raw: string): string {
  let shown = shownUrls.get(raw);
  if (shown === undefined) {
    shown = strip(raw);
    // A key's URL repeats on every delivery (twice: its log line and its attempt row); parsing it
    // each time was 3% of a single-Pix burst's notifier CPU. Bounded: cleared when full.
    if (shownUrls.size >= SHOWN_URLS_MAX) shownUrls.clear();
    shownUrls.set(raw, shown);
  }
  return shown;
}

const SHOWN_URLS_MAX = 1024;
const shownUrls = new Map<string, string>();

function strip(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '(invalid url)';
  }
  return `${url.protocol}//${url.host}${url.pathname}${url.search ? '?…' : ''}${url.hash ? '#…' : ''}`;
}

/**
 * A target URL as attempt records keep and show it: the same as the logs (`urlForLog`), so the
 * operator endpoint never shows a receiver's query token. Applied when writing and again when
 * reading: rows written before (or by an older process during a rolling upgrade) still hold the
 * whole URL (ADR 7). Idempotent: a shown URL shows unchanged.
 */
export function urlForRecord(raw: string | null): string | null {
  return raw === null ? null : urlForLog(raw);
}
