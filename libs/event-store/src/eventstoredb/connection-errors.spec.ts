/**
 * What the pinned @eventstore/db-client throws while EventStoreDB is down, restarting or failing
 * over must read as "unavailable" (503 ServicoIndisponivel), like PostgreSQL's. The errors are
 * built by the client's own convertToCommandError from gRPC statuses, as its calls do.
 */
import { Metadata, status } from '@grpc/grpc-js';
import { convertToCommandError, StreamNotFoundError, WrongExpectedVersionError } from '@eventstore/db-client';
import { isConnectionError } from '../postgres/connection-errors';

const grpcError = (code: status, details: string, headers: Record<string, string> = {}) => {
  const metadata = new Metadata();
  for (const [k, v] of Object.entries(headers)) metadata.set(k, v);
  return Object.assign(new Error(`${code} ${status[code]}: ${details}`), { code, details, metadata });
};

describe('isConnectionError on EventStoreDB client errors', () => {
  it.each([
    ['server down or restarting', convertToCommandError(grpcError(status.UNAVAILABLE, 'No connection established'))],
    ['append past its deadline', convertToCommandError(grpcError(status.DEADLINE_EXCEEDED, 'Deadline exceeded'))],
    ['server cancelled a call (shutdown)', convertToCommandError(grpcError(status.CANCELLED, 'Call cancelled'))],
    ['commit timeout', convertToCommandError(grpcError(status.ABORTED, 'Operation timed out'))],
    ['node lost leadership', convertToCommandError(grpcError(status.NOT_FOUND, 'Leader info available', { exception: 'not-leader', 'leader-endpoint-host': 'b', 'leader-endpoint-port': '2113' }))],
    ['gossip discovery failed', new Error('Failed to discover after 10 attempts.')],
  ])('%s is a connection error', (_, error) => expect(isConnectionError(error)).toBe(true));

  it.each([
    ['wrong expected version', new WrongExpectedVersionError(undefined, { streamName: 's', expected: 1n, current: 2n })],
    ['stream not found', new StreamNotFoundError(undefined, 's')],
    ['unknown server error', convertToCommandError(grpcError(status.INTERNAL, 'boom'))],
  ])('%s is not', (_, error) => expect(isConnectionError(error)).toBe(false));
});
