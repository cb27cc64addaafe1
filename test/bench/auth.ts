/**
 * The bench talks to one API process at a time: the bearer token of its client is set when that
 * process starts, and every request to the API carries it (the bare Fastify ceiling gets the
 * same header, which it ignores, so both parse the same request).
 */
let authorization: string | undefined;

export function setApiToken(token: string): void {
  authorization = `Bearer ${token}`;
}

export function apiHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return authorization ? { ...extra, authorization } : extra;
}
