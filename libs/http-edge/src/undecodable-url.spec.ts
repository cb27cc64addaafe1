import Fastify, { type FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { installHttpEdge, withHttpEdge } from './http-edge';
import { installStrictInput } from './strict-json-body';
import { rewriteUndecodable } from './undecodable-url';

const rewrite = (url: string) => rewriteUndecodable({ url } as IncomingMessage);

describe('rewriteUndecodable', () => {
  it('routes each run of escapes that is not UTF-8 as a NUL, in the path and in the query', () => {
    expect(rewrite('/v2/cobv/%FF')).toBe('/v2/cobv/%00');
    expect(rewrite('/qr/v2/cobv/t?DPP=%FF&codMun=%C3%283&%E9=1')).toBe('/qr/v2/cobv/t?DPP=%00&codMun=%003&%00=1');
    expect(rewrite('/v2/lotecobv/%C3%28')).toBe('/v2/lotecobv/%00');
    expect(rewrite('/v2/cobv/a%ED%A0%80b/qrcode')).toBe('/v2/cobv/a%00b/qrcode');
  });
  it('routes each % that starts no escape as a NUL too, keeping what follows it', () => {
    expect(rewrite('/v2/cobv/%zz')).toBe('/v2/cobv/%00zz');
    expect(rewrite('/v2/cobv/a%')).toBe('/v2/cobv/a%00');
    expect(rewrite('/v2/cobv/a%4')).toBe('/v2/cobv/a%004');
    expect(rewrite('/v2/cobv/a?b=%C3%A9&c=%zz&d=%')).toBe('/v2/cobv/a?b=%C3%A9&c=%00zz&d=%00');
    expect(rewrite('/v2/cobv/%%41')).toBe('/v2/cobv/%00%41');
    expect(rewrite('/v2/cobv/%C3%zz')).toBe('/v2/cobv/%00%00zz');
  });
  it('leaves UTF-8 escapes as sent', () => {
    for (const url of ['/v2/cobv/%C3%A9%2F%25', '/v2/cobv/a?b=%C3%A9&c=%25zz', '/v2/cobv/plain']) expect(rewrite(url)).toBe(url);
  });
});

describe('a path id that is not UTF-8 gets the route\'s own problem, as a NUL does', () => {
  let fastify: FastifyInstance;
  let seen: string[];
  beforeEach(async () => {
    seen = [];
    fastify = Fastify(withHttpEdge({}) as object);
    installHttpEdge(fastify);
    fastify.addHook('onRequest', (request, _reply, done) => (seen.push(request.url), done()));
    installStrictInput(fastify, { problemFor: (request, part) => ({ tipo: part === 'path' && request.method === 'GET' ? 'CobVNaoEncontrada' : 'CobVOperacaoInvalida', root: 'cobv' }) });
    fastify.setErrorHandler((error: Error & { tipo?: string }, _request, reply) => reply.status(400).send({ tipo: error.tipo }));
    fastify.get('/cobv/:txid', async () => ({ reached: true }));
    fastify.put('/cobv/:txid', async () => ({ reached: true }));
    await fastify.ready();
  });
  afterEach(() => fastify.close());

  it.each(['%FF', '%C3%28', '%ED%A0%80', 'ok%FF', '%00', '%zz', 'ok%', 'a%4', '%C3%zz'])('GET and PUT /cobv/%s', async (id) => {
    for (const [method, tipo] of [['GET', 'CobVNaoEncontrada'], ['PUT', 'CobVOperacaoInvalida']] as const) {
      const res = await fastify.inject({ method, url: `/cobv/${id}` });
      expect([method, res.json()]).toEqual([method, { tipo }]);
    }
    // Hooks and logs after routing see the URL as sent, not the routing substitute.
    expect(seen).toEqual([`/cobv/${id}`, `/cobv/${id}`]);
  });
});
