import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Logger } from '@nestjs/common';

const logger = new Logger('HTTP');
/** The requests of a connection parsed while an earlier response was still in flight, oldest first. */
const waiting = Symbol('pipelined requests waiting for their turn');
/** Node's own flag for a socket it stopped reading (it then keeps the parser paused too). */
type Queued = Socket & { [waiting]?: IncomingMessage[]; _paused?: boolean; parser?: { pause(): void; resume(): void } | null };

/**
 * Requests a connection may have waiting before it is no longer read. Node stops reading a
 * connection whose queued answers pass the socket's high-water mark, but requests held here write
 * nothing, so it never did: one client sending 200,000 pipelined requests without reading took
 * the API's heap to 500 MB, ten of them to 3.7 GB and minutes without answers (an audit,
 * 2026-11-27). What one read of the socket already holds is still parsed (a bounded overshoot).
 */
export const MAX_WAITING_PER_CONNECTION = 32;
/** Reading starts again once this few wait. */
const RESUME_BELOW = 8;

/**
 * RFC 9112 §9.6 for pipelined requests: each is executed once the responses before it on its
 * connection have finished, and never once one of them has closed the connection. Node emits
 * every request as soon as it is parsed: one parsed while an earlier response is in flight gets
 * its response queued (no socket until the earlier one finishes; `assignSocket` then emits
 * 'socket' on it) but runs at once, and one parsed after a `Connection: close` answer has ended
 * the connection (the socket still reads) runs with nowhere to answer. Both happened to a PUT
 * written after a body over the limit: stored, its client only ever seeing the 413 and a close.
 * Here the first waits for its 'socket' and the second is dropped. A request whose response has
 * a writable socket (every non-pipelined one) costs two property reads. 'checkContinue' and
 * 'checkExpectation', emitted instead of 'request', are held the same way.
 */
export function installPipelineOrder(server: Server): void {
  const emit = server.emit;
  server.emit = function (this: Server, event: string | symbol, request?: IncomingMessage, response?: ServerResponse) {
    if (event === 'request' || event === 'checkContinue' || event === 'checkExpectation') {
      const socket = response!.socket;
      if (socket == null) return waitForTurn(this, event, request!, response!);
      if (!socket.writable) return dropped(request!, 'the connection was already closed by an earlier answer');
    }
    // eslint-disable-next-line prefer-rest-params
    return emit.apply(this, arguments as unknown as Parameters<Server['emit']>);
  } as Server['emit'];
}

/** Whether requests parsed on `socket` still wait for the responses before them (so it must stay open). */
export function hasPipelinedRequests(socket: Socket | null): boolean {
  return ((socket as Queued | null)?.[waiting]?.length ?? 0) > 0;
}

function dropped(request: IncomingMessage, why: string): boolean {
  logger.debug(`pipelined ${request.method} ${request.url?.slice(0, 80)} not executed: ${why}`);
  return true;
}

function waitForTurn(server: Server, event: string, request: IncomingMessage, response: ServerResponse): boolean {
  const socket = request.socket as Queued;
  let queue = socket[waiting];
  if (!queue) {
    const requests: IncomingMessage[] = (queue = socket[waiting] = []);
    // One listener per connection, not per request: what still waits when it closes is dropped.
    socket.once('close', () => {
      for (const request of requests.splice(0)) dropped(request, 'the connection closed before its turn');
    });
  }
  queue.push(request);
  if (queue.length >= MAX_WAITING_PER_CONNECTION && !socket._paused) {
    socket._paused = true;
    socket.pause();
  }
  response.once('socket', () => {
    queue!.splice(queue!.indexOf(request), 1);
    if (socket._paused && queue!.length < RESUME_BELOW && !socket.destroyed) {
      socket._paused = false;
      socket.parser?.resume();
      socket.resume();
    }
    // Once assignSocket has flushed what the response buffered; emitted again, so a connection
    // ended meanwhile drops it. In the check phase, not as a microtask-like tick: a connection
    // answering its queue one request after another must let other connections' I/O (and the
    // database's answers) in between (one flooding address caused 503s for others: an audit).
    setImmediate(() => server.emit(event, request, response));
  });
  return true;
}
