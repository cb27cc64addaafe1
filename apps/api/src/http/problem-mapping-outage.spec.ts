import { DomainError } from '@pix/domain';
import { toProblem } from './problem-mapping';

describe('toProblem while the database is unreachable', () => {
  const outage = [
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    new Error('Connection terminated unexpectedly'),
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    new Error('timeout exceeded when trying to connect'),
    Object.assign(new Error('The producer is disconnected'), { name: 'KafkaJSError' }),
  ];

  it.each(outage.map((e) => [e.message, e]))('%s → 503 ServicoIndisponivel with Retry-After', (_, error) => {
    const { status, body, unexpected, headers } = toProblem(error, 'c-1');
    expect(status).toBe(503);
    expect(body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel', status: 503, correlationId: 'c-1' });
    expect(Number(headers?.['retry-after'])).toBeGreaterThan(0);
    expect(unexpected).toBe(false);
  });

  it('any other failure stays a 500', () => {
    expect(toProblem(Object.assign(new Error('duplicate key'), { code: '23505' }), 'c-2').status).toBe(500);
    expect(toProblem(new TypeError('x is undefined'), 'c-3').status).toBe(500);
  });
});

describe('toProblem of a refusal for now', () => {
  it('a domain ServicoIndisponivel (a batch with its rounds full) is a 503 with its detail and Retry-After, not an unexpected error', () => {
    const { status, body, unexpected, headers } = toProblem(new DomainError('ServicoIndisponivel', 'O lote 7 ainda processa 16 rodadas.'), 'c-4');
    expect(status).toBe(503);
    expect(body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel', status: 503, detail: 'O lote 7 ainda processa 16 rodadas.', correlationId: 'c-4' });
    expect(Number(headers?.['retry-after'])).toBeGreaterThan(0);
    expect(unexpected).toBe(false);
  });
});
