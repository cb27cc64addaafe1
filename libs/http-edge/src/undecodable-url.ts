import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The URL as sent, kept on a request whose percent-encoding was malformed or not UTF-8. */
const SENT_URL = Symbol('pix.sentUrl');
type Marked = IncomingMessage & { [SENT_URL]?: string };

// A run of consecutive %XX escapes (the bytes of one or more characters), or a `%` that starts
// no escape (`%zz`, `%4`, a trailing `%`), which decodes to nothing either.
const ESCAPE_RUNS = /(?:%[0-9A-Fa-f]{2})+|%/g;

const decodes = (run: string): boolean => {
  try {
    decodeURIComponent(run);
    return true;
  } catch {
    return false;
  }
};

/**
 * Fastify's `rewriteUrl`: each run of escapes that is not UTF-8 (`%FF`, `%C3%28`, an encoded
 * surrogate `%ED%A0%80`) and each `%` that starts no escape (`%zz` → `%00zz`) becomes `%00` for
 * routing. The router refused a whole URL with such a path with a bare 400 RequisicaoInvalida,
 * which a GET of an identifier does not declare, and the query parser kept such a query value as
 * the literal text "%FF"; now the request reaches its route, and the check of path and query
 * values (installStrictInput) refuses it with the endpoint's own problem, as it refuses a NUL
 * sent as such.
 */
export function rewriteUndecodable(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (!url.includes('%')) return url;
  const routed = url.replace(ESCAPE_RUNS, (run) => (decodes(run) ? run : '%00'));
  if (routed !== url) (req as Marked)[SENT_URL] = url;
  return routed;
}

/** Whether the request's URL held a malformed escape or percent-encoded bytes that are not UTF-8 (see rewriteUndecodable). */
export const hadUndecodableUrl = (request: FastifyRequest): boolean => (request.raw as Marked)[SENT_URL] !== undefined;

/**
 * Once routed (params and query already read), the request shows the URL it was sent with again,
 * so logs and every later reader see what the client sent, not the routing substitute.
 */
export function installSentUrl(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const sent = (request.raw as Marked)[SENT_URL];
    if (sent !== undefined) request.raw.url = sent;
    done();
  });
}
