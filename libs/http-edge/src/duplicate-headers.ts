import { correlationIdOf } from '@pix/observability';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { problemForStatus, replyWithProblem } from './edge-problem';

/**
 * Fields that must appear once and that Node quietly reduces to their first value when repeated:
 * a proxy in front may have read the other one (RFC 9112 §3.2 asks for a 400 on a second Host),
 * so a repeated one is refused, never guessed at.
 */
const SINGLE_FIELDS = new Set(['host', 'authorization', 'proxy-authorization', 'content-type', 'content-length']);

/** The first field of `rawHeaders` (name, value, name, value...) that appears more than once. */
export function repeatedSingleField(rawHeaders: string[]): string | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (!SINGLE_FIELDS.has(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/** Why the request's header block is refused, if it is. */
function ambiguity(request: FastifyRequest): string | undefined {
  const raw = request.raw;
  const repeated = repeatedSingleField(raw.rawHeaders);
  if (repeated) return `O cabeçalho ${repeated} aparece mais de uma vez; envie-o uma única vez.`;
  // Node's own check (requireHostHeader) answers a bare 400; it is off so the refusal is a problem.
  if (raw.httpVersion === '1.1' && raw.headers.host === undefined) return 'O cabeçalho Host é obrigatório em HTTP/1.1.';
  // Node removes the chunked framing and hands over what is under it, `gzip, chunked` included:
  // a coding we never undo would be read as the body itself (RFC 9112 §6.1), so only chunked alone passes.
  const transfer = raw.headers['transfer-encoding'];
  if (transfer !== undefined && !/^\s*chunked\s*$/i.test(transfer)) return `Transfer-Encoding não suportado (${transfer.slice(0, 40)}): envie o corpo só com chunked, ou com Content-Length.`;
  return undefined;
}

/**
 * First onRequest hook: a header block that can be read two ways is refused with a 400 problem
 * before anything (rate limit, authentication, body) looks at it, and the connection is closed.
 */
export function installHeaderChecks(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    // Only 100-continue is an expectation we meet (RFC 9110 §10.1.1); Node hands the others here.
    const expectation = request.headers.expect;
    if (expectation !== undefined && expectation.trim().toLowerCase() !== '100-continue')
      return replyWithProblem(reply, problemForStatus(417, correlationIdOf(request), 'Expect não suportado: apenas 100-continue.'), { close: true });
    const detail = ambiguity(request);
    if (!detail) return done();
    replyWithProblem(reply, problemForStatus(400, correlationIdOf(request), detail), { close: true });
  });
}
