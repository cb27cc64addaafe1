import { Logger, type ArgumentsHost } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ProblemFilter, sendProblem } from './problem.filter';
import { TooManyRequestsError } from './too-many-requests';

/** A reply that records what the filter sends. */
function fakeReply() {
  const sent = { status: 0, headers: {} as Record<string, string>, body: '' };
  const reply = {
    status: (s: number) => ((sent.status = s), reply),
    header: (k: string, v: string) => ((sent.headers[k.toLowerCase()] = v), reply),
    headers: (h: Record<string, string>) => (Object.entries(h).forEach(([k, v]) => (sent.headers[k.toLowerCase()] = v)), reply),
    send: (b: string) => ((sent.body = b), reply),
  };
  return { reply: reply as unknown as FastifyReply, sent };
}

const request = (cid = 'cid-problem-1') => ({ method: 'PUT', url: '/v2/cobv/abc?cpf=12345678909', headers: { 'x-correlation-id': cid } }) as unknown as FastifyRequest;

describe('ProblemFilter: no internals in problem responses', () => {
  it('answers an unexpected error with a bare ErroInternoDoServidor; message and stack go to the log only', () => {
    const { reply, sent } = fakeReply();
    const logged: string[] = [];
    const logger = new Logger('HTTP');
    jest.spyOn(logger, 'error').mockImplementation((m: unknown) => void logged.push(String(m)));
    const filter = new ProblemFilter();
    (filter as unknown as { logger: Logger }).logger = logger;
    const host = { switchToHttp: () => ({ getRequest: () => request(), getResponse: () => reply }) } as unknown as ArgumentsHost;

    filter.catch(new Error('secret internal detail'), host);

    expect(sent.status).toBe(500);
    expect(sent.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = JSON.parse(sent.body);
    expect(body).toEqual({ type: 'https://pix.bcb.gov.br/api/v2/error/ErroInternoDoServidor', title: expect.any(String), status: 500, detail: expect.any(String), correlationId: 'cid-problem-1' });
    expect(sent.body).not.toContain('secret internal detail');
    expect(sent.body).not.toMatch(/\bat .*\.(ts|js):\d+/); // no stack frames
    expect(sent.body).not.toMatch(/Error:/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('secret internal detail');
    expect(logged[0]).toMatch(/\n\s+at .*problem\.filter\.spec\.ts:\d+/);
    // The query string (personal data in filters) stays out of the log too.
    expect(logged[0]).toMatch(/^PUT \/v2\/cobv\/abc failed/);
    expect(logged[0]).not.toContain('12345678909');
  });

  it('keeps the message of a non-Error throw out of the body as well', () => {
    const { reply, sent } = fakeReply();
    const logger = new Logger('HTTP');
    jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    sendProblem({ password: 'hunter2', statusCode: 'x' }, request(), reply, logger);
    expect(sent.status).toBe(500);
    expect(sent.body).not.toContain('hunter2');
  });

  it('answers a rate-limit refusal 429 about:blank with Retry-After in whole seconds (>= 1)', () => {
    const { reply, sent } = fakeReply();
    sendProblem(new TooManyRequestsError(1), request('cid-429'), reply);
    expect(sent.status).toBe(429);
    expect(sent.headers['retry-after']).toBe('1');
    expect(JSON.parse(sent.body)).toEqual({ type: 'about:blank', title: 'Too Many Requests', status: 429, detail: expect.stringContaining('1 s'), correlationId: 'cid-429' });
    expect(new TooManyRequestsError(2001).retryAfterSeconds).toBe(3);
  });
});
