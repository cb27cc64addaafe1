import { HttpException } from '@nestjs/common';
import { buildProblema, ProblemError, type Problema, type TipoErro } from '@pix/contracts';
import { isDomainError } from '@pix/domain';
import { fastifyClientErrorDetail, RETRY_AFTER_SECONDS, unavailableProblem } from '@pix/http-edge';
import { UnauthorizedError } from '../auth/unauthorized';
import { TooManyRequestsError } from './too-many-requests';

/**
 * The one place where errors become official problem responses. Unknown errors become a bare
 * 500 with no internal detail; the caller logs them with the correlation id.
 */
export function toProblem(error: unknown, correlationId: string): { status: number; body: Problema; unexpected: boolean; headers?: Record<string, string> } {
  // The official contract defines no type for 429: RFC 7807's about:blank with the HTTP title.
  if (error instanceof TooManyRequestsError) {
    const detail = `Limite de requisições excedido; tente novamente em ${error.retryAfterSeconds} s.`;
    const body = { type: 'about:blank', title: 'Too Many Requests', status: 429, detail, correlationId };
    return { status: 429, body, unexpected: false, headers: { 'retry-after': String(error.retryAfterSeconds) } };
  }
  // Nor for 401 (no or unusable bearer token): about:blank too, with the RFC 6750 challenge.
  if (error instanceof UnauthorizedError) {
    const body = { type: 'about:blank', title: 'Unauthorized', status: 401, detail: error.detail, correlationId };
    return { status: 401, body, unexpected: false, headers: { 'www-authenticate': error.challenge } };
  }
  if (error instanceof ProblemError) {
    const body = error.toProblema(correlationId);
    return { status: body.status, body, unexpected: false };
  }
  if (isDomainError(error)) {
    const body = buildProblema(error.kind as TipoErro, { detail: error.detail, correlationId, violacoes: error.violacoes });
    // A refusal for now (ServicoIndisponivel) says when to come back, as every 503 here does.
    return { status: body.status, body, unexpected: false, ...(body.status === 503 ? { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } } : {}) };
  }
  // The database (or, for a sandbox cash-in, the broker) is down or restarting: nothing was stored; come back soon.
  const unavailable = unavailableProblem(error, correlationId);
  if (unavailable) return { ...unavailable, unexpected: false };
  const status = statusOf(error);
  if (status === 404)
    return { status, body: buildProblema('NaoEncontrado', { correlationId, detail: 'Recurso não encontrado.' }), unexpected: false };
  if (status === 405)
    return { status, body: { ...buildProblema('RequisicaoInvalida', { correlationId, detail: 'Método não permitido para este recurso.' }), status }, unexpected: false };
  if (status !== undefined && status >= 400 && status < 500) {
    const detail = clientErrorDetail(error, status);
    return { status, body: { ...buildProblema('RequisicaoInvalida', { correlationId, detail }), status }, unexpected: false };
  }
  if (status === 503) return { status, body: buildProblema('ServicoIndisponivel', { correlationId }), unexpected: true, headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } };
  return { status: 500, body: buildProblema('ErroInternoDoServidor', { correlationId }), unexpected: true };
}

function statusOf(error: unknown): number | undefined {
  if (error instanceof HttpException) return error.getStatus();
  const s = (error as { statusCode?: unknown })?.statusCode;
  return typeof s === 'number' ? s : undefined;
}

/** Fastify's own client errors in the contract's language (shared with the notifier); anything else generically. */
function clientErrorDetail(error: unknown, status: number): string {
  return fastifyClientErrorDetail(error, status) ?? 'Requisição inválida.';
}
