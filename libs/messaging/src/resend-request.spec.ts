import { ProblemError } from '@pix/contracts';
import { describeResend, parseResendBody } from './resend-request';

describe('parseResendBody', () => {
  const problemOf = (body: unknown) => {
    try {
      parseResendBody(body);
    } catch (error) {
      return (error as ProblemError).toProblema('c');
    }
    throw new Error('accepted');
  };

  it('refuses fim before inicio with 400 RequisicaoInvalida naming body.fim, as the listings refuse it', () => {
    const problem = problemOf({ inicio: '2026-11-23T12:00:00Z', fim: '2026-11-23T11:59:59.999Z' });
    expect(problem).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida', status: 400, violacoes: [{ propriedade: 'body.fim' }] });
  });

  it('compares instants, not texts: an offset that puts fim after inicio is accepted', () => {
    expect(parseResendBody({ inicio: '2026-11-23T12:00:00Z', fim: '2026-11-23T10:00:00-03:00' })).toMatchObject({ from: new Date('2026-11-23T12:00:00Z'), to: new Date('2026-11-23T13:00:00Z') });
    expect(parseResendBody({ inicio: '2026-11-23T12:00:00Z', fim: '2026-11-23T12:00:00Z' }).to).toEqual(new Date('2026-11-23T12:00:00Z'));
  });
});

describe('parseResendBody: status', () => {
  it('takes a status, alone or with a period: "every dead one since X" is one call', () => {
    expect(parseResendBody({ status: 'dead', inicio: '2026-11-23T12:00:00Z' })).toMatchObject({ status: 'dead', from: new Date('2026-11-23T12:00:00Z') });
    expect(parseResendBody({ status: 'dead' })).toMatchObject({ status: 'dead' });
  });

  it('refuses a status that is not one of the outbox statuses, naming body.status', () => {
    expect(() => parseResendBody({ status: 'morta' })).toThrow(expect.objectContaining({ violacoes: [expect.objectContaining({ propriedade: 'body.status' })] }));
  });

  it('describes what was asked for its log line: the first ids, status and period', () => {
    const ids = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000004'];
    expect(describeResend(parseResendBody({ ids }))).toBe(`ids ${ids.slice(0, 3).join(', ')} and 1 more`);
    expect(describeResend(parseResendBody({ status: 'dead', inicio: '2026-11-27T00:00:00Z' }))).toBe('status dead; from 2026-11-27T00:00:00.000Z');
  });
});
