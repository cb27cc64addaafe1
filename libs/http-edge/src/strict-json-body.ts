import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasRefusedText, parseStrictJson, ProblemError, StrictJsonError, type TipoErro } from '@pix/contracts';
import { readBody } from './body-reader';
import { charsetRefusal } from './charset';
import { hadUndecodableUrl } from './undecodable-url';

/** Where in a request a value came from: the endpoint decides which problem type that is. */
export type RequestPart = 'path' | 'query' | 'body';

/** The problem type (and the body's name in violation paths) an endpoint answers for bad input. */
export interface EndpointProblem {
  tipo: TipoErro;
  root: string;
}

export interface StrictInputOptions {
  problemFor(request: FastifyRequest, part: RequestPart): EndpointProblem;
}

const MALFORMED: Partial<Record<StrictJsonError['fault'], string>> = {
  syntax: 'O corpo da requisição não é um JSON válido',
  duplicate: 'O corpo da requisição é um JSON ambíguo: um membro aparece mais de uma vez',
  depth: 'O corpo da requisição tem aninhamento excessivo',
  proto: 'O corpo da requisição contém propriedades proibidas (__proto__)',
  size: 'O corpo da requisição tem valores demais para o seu tamanho (no máximo um a cada 8 bytes)',
};

/** Methods Fastify reads a body for that no route of ours takes one with. */
const NO_BODY_METHODS = new Set(['DELETE', 'OPTIONS']);

const refusedText = (name: string) => `${name} contém um caractere de controle (U+0000 a U+001F, U+007F a U+009F) ou um substituto UTF-16 isolado, que não são aceitos.`;
// A URL's malformed escapes and bytes that were not UTF-8 reach the check as a NUL (rewriteUndecodable): say all.
const refusedUrlText = (name: string) =>
  `${name} contém um caractere de controle (U+0000 a U+001F, U+007F a U+009F), um escape percentual malformado ou bytes que não são UTF-8 válido (codificação percentual), que não são aceitos.`;
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Replaces Fastify's JSON parser (JSON.parse: last duplicate wins, unbounded recursion, NUL and
 * lone surrogates passed on) with the strict one, refuses encoded bodies (we never decode them,
 * so reading one as plain would reinterpret it) and bodies declared in a charset not UTF-8, and
 * refuses control characters and lone surrogates in path and query values as in bodies, before
 * any handler runs. Every refusal is the endpoint's own problem.
 */
export function installStrictInput(fastify: FastifyInstance, options: StrictInputOptions): void {
  fastify.removeContentTypeParser('application/json');
  // Read by readBody, not Fastify's parseAs (which keeps one Buffer per chunk received).
  fastify.addContentTypeParser('application/json', (request, payload, done) => {
    const bodiless = NO_BODY_METHODS.has(request.method);
    const refused = charsetRefusal(request.headers['content-type']);
    if (refused && !bodiless) return done(refused, undefined);
    readBody(request, payload, (failed, raw) => {
      if (failed) return done(failed, undefined);
      // fetch-style clients send Content-Type on every request: an empty body on a method none
      // of our routes takes a body with is no body (GET and HEAD bodies Fastify never reads).
      if (bodiless && raw!.length === 0) return done(null, undefined);
      if (refused) return done(refused, undefined);
      try {
        // The endpoint's problem is looked up only for a body refused (it reads the route's URL).
        done(null, parseBody(raw!, () => options.problemFor(request, 'body')));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
  });
  // Callback hooks, not async ones: they run on every request and need no promise.
  fastify.addHook('onRequest', (request, _reply, done) => {
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && !/^\s*identity\s*$/i.test(String(encoding)))
      return done(new ProblemError('RequisicaoInvalida', `Content-Encoding não suportado (${String(encoding).slice(0, 40)}): envie o corpo sem codificação.`, [], 415));
    done();
  });
  fastify.addHook('preValidation', (request, _reply, done) => {
    try {
      checkValues(request.params, request, 'path', options);
      checkValues(request.query, request, 'query', options);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
}

function parseBody(raw: Buffer, endpointOf: () => EndpointProblem): unknown {
  if (raw.length === 0) throw new ProblemError('RequisicaoInvalida', 'O corpo da requisição está vazio.');
  let text: string;
  try {
    text = fatalUtf8.decode(raw);
  } catch {
    throw new ProblemError('RequisicaoInvalida', 'O corpo da requisição não é UTF-8 válido.');
  }
  try {
    return parseStrictJson(text);
  } catch (error) {
    if (!(error instanceof StrictJsonError)) throw error;
    const endpoint = endpointOf();
    const propriedade = error.path === '' ? endpoint.root : `${endpoint.root}.${error.path}`;
    if (error.fault === 'text') throw new ProblemError(endpoint.tipo, refusedText(`O campo ${propriedade}`), [{ razao: refusedText(`O campo ${propriedade}`), propriedade }]);
    if (error.fault === 'number') {
      const razao = `O campo ${propriedade} não respeita o _schema_: ${error.message}.`;
      throw new ProblemError(endpoint.tipo, razao, [{ razao, propriedade }]);
    }
    throw new ProblemError('RequisicaoInvalida', `${MALFORMED[error.fault]}: ${error.message}.`, error.path === '' ? [] : [{ razao: error.message, propriedade }]);
  }
}

const isRefused = (t: unknown) => typeof t === 'string' && hasRefusedText(t);

function checkValues(values: unknown, request: FastifyRequest, part: RequestPart, options: StrictInputOptions): void {
  if (typeof values !== 'object' || values === null) return;
  for (const name of Object.keys(values)) {
    const value = (values as Record<string, unknown>)[name];
    if (hasRefusedText(name) || (Array.isArray(value) ? value.some(isRefused) : isRefused(value))) {
      const { tipo } = options.problemFor(request, part);
      const label = part === 'path' ? `O parâmetro de caminho ${name}` : `O parâmetro ${name}`;
      const razao = (hadUndecodableUrl(request) ? refusedUrlText : refusedText)(label);
      throw new ProblemError(tipo, razao, [{ razao, propriedade: name.replace(/[^\x20-\x7e]/g, '?') }]);
    }
  }
}
