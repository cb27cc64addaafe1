import { STATUS_CODES } from 'node:http';
import { buildProblema, type Problema } from '@pix/contracts';
import type { FastifyReply } from 'fastify';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/**
 * The contract's problem for an error known only by its HTTP status (no domain meaning), told
 * as the API already tells it: 404 `NaoEncontrado`, 403 `AcessoNegado`, 503/504 their types,
 * other 4xx `RequisicaoInvalida` with the real status; 401 and 429, which the contract does not
 * type, are RFC 7807's about:blank; anything else is a bare 500.
 */
export function problemForStatus(status: number, correlationId: string, detail?: string): Problema {
  const extra = { correlationId, ...(detail === undefined ? {} : { detail }) };
  if (status === 401 || status === 429) return { type: 'about:blank', title: STATUS_CODES[status]!, status, detail: detail ?? STATUS_CODES[status]!, correlationId };
  if (status === 404) return buildProblema('NaoEncontrado', { detail: 'Recurso não encontrado.', ...extra });
  if (status === 403) return buildProblema('AcessoNegado', extra);
  if (status === 503) return buildProblema('ServicoIndisponivel', extra);
  if (status === 504) return buildProblema('IndisponibilidadePorTempoEsgotado', extra);
  if (status >= 400 && status < 500) return { ...buildProblema('RequisicaoInvalida', extra), status };
  return buildProblema('ErroInternoDoServidor', { correlationId });
}

/**
 * A complete HTTP/1.1 answer written by hand, for errors found before any request object exists
 * (or after it can no longer answer): the connection is closed after it, and says so.
 */
export function rawProblemResponse(problem: Problema): string {
  const body = JSON.stringify(problem);
  return [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Correlation-Id: ${problem.correlationId ?? ''}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Answers `problem` through Fastify (so onSend hooks still add their headers). */
export function replyWithProblem(reply: FastifyReply, problem: Problema, options: { close?: boolean; headers?: Record<string, string> } = {}): void {
  if (options.close) void reply.header('connection', 'close');
  if (options.headers) void reply.headers(options.headers);
  void reply
    .status(problem.status)
    .header('content-type', PROBLEM_CONTENT_TYPE)
    .header('x-correlation-id', problem.correlationId ?? '')
    .send(JSON.stringify(problem));
}
