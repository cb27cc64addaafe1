import type { FastifyRequest } from 'fastify';
import type { TipoErro } from '@pix/contracts';
import type { EndpointProblem, RequestPart } from '@pix/http-edge';

interface Family {
  root: string;
  operation: TipoErro;
  query: TipoErro;
  notFound: TipoErro;
}

// The contract gives each resource its own problem types: a bad body or PUT/PATCH/DELETE input
// is its "OperacaoInvalida", a bad list query its "ConsultaInvalida", and an identifier that
// cannot name anything on a read is "not found" (the GETs declare no 400).
const FAMILIES = new Map<string, Family>(Object.entries({
  cobv: { root: 'cobv', operation: 'CobVOperacaoInvalida', query: 'CobVConsultaInvalida', notFound: 'CobVNaoEncontrada' },
  lotecobv: { root: 'loteCobV', operation: 'LoteCobVOperacaoInvalida', query: 'LoteCobVConsultaInvalida', notFound: 'LoteCobVNaoEncontrado' },
  webhook: { root: 'webhook', operation: 'WebhookOperacaoInvalida', query: 'WebhookConsultaInvalida', notFound: 'WebhookNaoEncontrado' },
  loc: { root: 'loc', operation: 'PayloadLocationOperacaoInvalida', query: 'PayloadLocationConsultaInvalida', notFound: 'PayloadLocationNaoEncontrado' },
  pix: { root: 'pix', operation: 'PixConsultaInvalida', query: 'PixConsultaInvalida', notFound: 'PixNaoEncontrado' },
  // The sandbox payer answers as the charge it pays.
  sandbox: { root: 'body', operation: 'CobVOperacaoInvalida', query: 'CobVOperacaoInvalida', notFound: 'CobVNaoEncontrada' },
} satisfies Record<string, Family>));

// The payer's bank's view (ADR 11) lives on the location host's own path, outside the base path.
// Its one operation declares CobPayloadOperacaoInvalida ("DPP não respeita o _schema_", ...) and
// CobPayloadNaoEncontrado; the JWKS beside it is ours and keeps the general type.
const LOCATION_PREFIX = '/qr/v2/';
const LOCATION_FAMILIES = new Map<string, Family>(Object.entries({
  cobv: { root: 'cobv', operation: 'CobPayloadOperacaoInvalida', query: 'CobPayloadOperacaoInvalida', notFound: 'CobPayloadNaoEncontrado' },
} satisfies Record<string, Family>));

/** The problem an API endpoint answers for input it refuses before any handler runs. */
export function endpointProblem(basePath: string) {
  const prefix = basePath.replace(/\/+$/, '');
  const familyOf = (url: string): Family | undefined => {
    if (url.startsWith(LOCATION_PREFIX)) return LOCATION_FAMILIES.get(url.slice(LOCATION_PREFIX.length).split('/')[0]);
    const rest = url.startsWith(`${prefix}/`) ? url.slice(prefix.length + 1) : url.replace(/^\//, '');
    return FAMILIES.get(rest.split('/')[0]);
  };
  return (request: FastifyRequest, part: RequestPart): EndpointProblem => {
    const family = familyOf(request.routeOptions?.url ?? '');
    if (!family) return { tipo: 'RequisicaoInvalida', root: 'body' };
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (part === 'path' && (read || request.method === 'DELETE')) return { tipo: family.notFound, root: family.root };
    if (read) return { tipo: family.query, root: family.root };
    return { tipo: family.operation, root: family.root };
  };
}
