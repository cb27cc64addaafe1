import { isConnectionError } from './connection-errors';

describe('isConnectionError', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

  it.each([
    ['refused', withCode('ECONNREFUSED')],
    ['reset', withCode('ECONNRESET')],
    ['killed mid-query', new Error('Connection terminated unexpectedly')],
    ['connect timeout (pg)', new Error('Connection terminated due to connection timeout')],
    ['connect timeout (pg-pool)', new Error('timeout exceeded when trying to connect')],
    ['admin shutdown', withCode('57P01', 'terminating connection due to administrator command')],
    ['starting up', withCode('57P03', 'the database system is starting up')],
    ['connection exception class', withCode('08006')],
    // Refused at connect (an operator audit got 500s for each): ALLOW_CONNECTIONS false, a renamed database, a rotated password.
    ['database not accepting connections', Object.assign(withCode('55000', 'database "pix" is not currently accepting connections'), { routine: 'CheckMyDatabase' })],
    ['database gone', withCode('3D000', 'database "pix" does not exist')],
    ['password refused', withCode('28P01', 'password authentication failed for user "pix"')],
    ['all addresses refused', Object.assign(new AggregateError([withCode('ECONNREFUSED')]), {})],
    ['wrapped', new Error('outer', { cause: withCode('ECONNREFUSED') })],
  ])('%s is a connection error', (_, error) => expect(isConnectionError(error)).toBe(true));

  it.each([
    ['unique violation', withCode('23505')],
    ['syntax error', withCode('42601')],
    ['a query in the wrong state (55000 elsewhere)', Object.assign(withCode('55000'), { routine: 'currval_oid' })],
    ['plain bug', new TypeError('x is undefined')],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s is not', (_, error) => expect(isConnectionError(error)).toBe(false));
});
