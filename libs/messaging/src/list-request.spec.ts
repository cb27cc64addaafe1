import { ProblemError } from '@pix/contracts';
import { parseListQuery } from './list-request';

describe('parseListQuery (GET /notifier/notifications)', () => {
  const problemOf = (query: Record<string, unknown>) => {
    try {
      parseListQuery(query);
    } catch (error) {
      return (error as ProblemError).toProblema('c');
    }
    throw new Error('accepted');
  };

  it('reads status, limit and before (a cursor or an instant alone, kept to the microsecond)', () => {
    expect(parseListQuery({})).toEqual({ limit: 50 });
    expect(parseListQuery({ status: 'dead', limit: '200', before: '2026-11-27T05:41:35.123456Z,0f8e1c3a-9d1e-4c4e-8d5b-2f3a4b5c6d7e' })).toEqual({
      status: 'dead',
      limit: 200,
      before: { at: '2026-11-27T05:41:35.123456Z', id: '0f8e1c3a-9d1e-4c4e-8d5b-2f3a4b5c6d7e' },
    });
    expect(parseListQuery({ before: '2026-11-27T02:41:35-03:00' })).toEqual({ limit: 50, before: { at: '2026-11-27T05:41:35.000000Z' } });
  });

  it.each([
    [{ offset: '5' }, 'offset'],
    [{ status: 'DEAD' }, 'status'],
    [{ status: ['dead', 'pending'] }, 'status'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '201' }, 'limit'],
    [{ before: 'ontem' }, 'before'],
    [{ before: '2026-11-27T05:41:35Z,not-an-id' }, 'before'],
    [{ before: '0000-01-01T00:00:00Z' }, 'before'],
  ])('refuses %j with 400 RequisicaoInvalida naming %s', (query, propriedade) => {
    expect(problemOf(query)).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida', status: 400, violacoes: [expect.objectContaining({ propriedade })] });
  });
});
