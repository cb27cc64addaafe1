/**
 * A target URL as the logs show it: scheme, host, port and path. The query and fragment are
 * dropped (receivers often authenticate callbacks with a query token, and the official callback
 * `{webhookUrl}/pix` puts "/pix" after it), leaving "?…" (and "#…") so an operator knows there was one;
 * userinfo is dropped too.
 */
export function urlForLog(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '(invalid url)';
  }
  return `${url.protocol}//${url.host}${url.pathname}${url.search ? '?…' : ''}${url.hash ? '#…' : ''}`;
}
