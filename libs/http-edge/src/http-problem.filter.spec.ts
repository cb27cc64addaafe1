import { BadRequestException, HttpException, type ArgumentsHost } from '@nestjs/common';
import { errorCodes } from 'fastify';
import { HttpProblemFilter } from './http-problem.filter';

/** What the filter answered for `error`: status and problem body. */
function answerTo(error: unknown): { status: number; body: Record<string, unknown> } {
  const sent: { status?: number; body?: string } = {};
  const reply = {
    status: (s: number) => ((sent.status = s), reply),
    header: () => reply,
    headers: () => reply,
    send: (b: string) => ((sent.body = b), reply),
  };
  const request = { method: 'POST', url: '/notifier/resend', headers: {}, id: 'req-1' };
  const host = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ArgumentsHost;
  new HttpProblemFilter().catch(error, host);
  return { status: sent.status!, body: JSON.parse(sent.body!) };
}

describe('HttpProblemFilter (the notifier operator server)', () => {
  it('answers a body over the limit with 413 RequisicaoInvalida and a Portuguese detail, as the API does (ADR 10)', () => {
    // As Nest's router hands it over (mapExternalException: message and status, code lost), and as Fastify raises it.
    for (const error of [new HttpException('Request body is too large', 413), new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE()]) {
      const { status, body } = answerTo(error);
      expect(status).toBe(413);
      expect(body).toMatchObject({
        type: 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida',
        status: 413,
        detail: 'O corpo da requisição excede o tamanho máximo permitido.',
      });
    }
  });

  it('tells Fastify\'s other parser errors in Portuguese and keeps our own messages', () => {
    expect(answerTo(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE('text/plain')).body.detail).toBe('Content-Type não suportado: envie application/json.');
    expect(answerTo(new BadRequestException('limit deve ser um inteiro')).body.detail).toBe('limit deve ser um inteiro');
  });
});
