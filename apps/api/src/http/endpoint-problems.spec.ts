import type { FastifyRequest } from 'fastify';
import { endpointProblem } from './endpoint-problems';

const problemFor = endpointProblem('/v2');
const request = (method: string, url: string) => ({ method, routeOptions: { url } }) as FastifyRequest;
const tipoOf = (method: string, url: string, part: 'path' | 'query' | 'body') => problemFor(request(method, url), part).tipo;

describe('endpointProblem', () => {
  it('gives an API resource its own types: a read id is not found, a read query is a bad query, a write is a bad operation', () => {
    expect(tipoOf('GET', '/v2/cobv/:txid', 'path')).toBe('CobVNaoEncontrada');
    expect(tipoOf('GET', '/v2/cobv', 'query')).toBe('CobVConsultaInvalida');
    expect(tipoOf('PUT', '/v2/cobv/:txid', 'path')).toBe('CobVOperacaoInvalida');
    expect(tipoOf('DELETE', '/v2/webhook/:chave', 'path')).toBe('WebhookNaoEncontrado');
  });

  it('gives the payload location (outside the base path) its own CobPayload types, for its query and its token', () => {
    expect(tipoOf('GET', '/qr/v2/cobv/:pixUrlAccessToken', 'query')).toBe('CobPayloadOperacaoInvalida');
    expect(tipoOf('GET', '/qr/v2/cobv/:pixUrlAccessToken', 'path')).toBe('CobPayloadNaoEncontrado');
  });

  it('keeps the general type where the contract names no resource', () => {
    expect(tipoOf('GET', '/qr/v2/jwks', 'query')).toBe('RequisicaoInvalida');
    expect(tipoOf('POST', '/oauth/token', 'body')).toBe('RequisicaoInvalida');
    expect(tipoOf('GET', '*', 'path')).toBe('RequisicaoInvalida');
  });
});
