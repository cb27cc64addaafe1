import type { FastifyInstance } from 'fastify';
import { TOKEN_PATH } from './token-path';

/** RFC 6749 §5.2's error body, as every refusal of the token endpoint is written (ADR 8). */
export const oauthInvalidRequest = (description: string) => JSON.stringify({ error: 'invalid_request', error_description: description });

/** Whether a refusal of `url` with `status` speaks OAuth2: the token endpoint's 4xx, but 429 (a problem everywhere, README). */
export const speaksOAuth = (url: string | undefined, status: number) => url === TOKEN_PATH && status >= 400 && status < 500 && status !== 429;

/**
 * Refusals made before the token endpoint's handler (the edge's duplicate headers and Expect, local
 * mode's Host check) leave as problems through hooks that know no route; a black-box fuzz found
 * them answering OAuth clients with application/problem+json. Rewritten here, in one place, to
 * RFC 6749 JSON. Refusals of Node's parser, before any route is known, stay problems.
 */
export function installTokenErrorFormat(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    // Every response passes here: the route is compared first, the headers only on the token path.
    if (!speaksOAuth(request.routeOptions?.url, reply.statusCode) || typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').startsWith('application/problem+json'))
      return done(null, payload);
    let description = 'Requisição inválida.';
    try {
      const problem = JSON.parse(payload) as { detail?: string; title?: string };
      description = problem.detail ?? problem.title ?? description;
    } catch {
      /* not ours to read: the generic description */
    }
    void reply.header('content-type', 'application/json; charset=utf-8');
    done(null, oauthInvalidRequest(description));
  });
}
