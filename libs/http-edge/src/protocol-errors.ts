import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Logger } from '@nestjs/common';
import { correlationIdOf } from '@pix/observability';
import type { FastifyRequest } from 'fastify';
import { problemForStatus, rawProblemResponse } from './edge-problem';
import { hasPipelinedRequests, installPipelineOrder } from './pipelining';

const logger = new Logger('HTTP');
const answered = new WeakSet<Duplex>();
/**
 * How long, and how many bytes, a refused connection may still drain, so our answer is not lost
 * to a reset: as nginx's lingering_timeout and lingering_time, a pause between reads ends it, and
 * so does a total. A total alone (1 s once) cut off clients still writing a 16 MiB body on a busy
 * machine (EPIPE instead of the 413).
 */
const LINGER_IDLE_MS = 2_000;
const LINGER_MAX_MS = 10_000;
const LINGER_MAX_BYTES = 64 * 1_048_576;

/** Node's parser errors (llhttp codes) and time-outs, in the status Node itself gives and our words. */
function describe(code: string | undefined): { status: number; detail: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, detail: 'Os cabeçalhos da requisição excedem o tamanho máximo permitido.' };
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return { status: 413, detail: 'As extensões de chunk excedem o tamanho máximo permitido.' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, detail: 'A requisição não chegou por completo dentro do tempo limite.' };
  if (code === 'HPE_INVALID_METHOD') return { status: 400, detail: 'Método HTTP desconhecido.' };
  if (code === 'HPE_INVALID_CONTENT_LENGTH' || code === 'HPE_UNEXPECTED_CONTENT_LENGTH') return { status: 400, detail: 'Content-Length inválido ou repetido.' };
  if (code === 'HPE_INVALID_CHUNK_SIZE' || code === 'HPE_INVALID_TRANSFER_ENCODING' || code === 'HPE_INVALID_EOF_STATE')
    return { status: 400, detail: 'Corpo em Transfer-Encoding chunked malformado ou Transfer-Encoding não suportado.' };
  return { status: 400, detail: 'Requisição HTTP malformada (linha de requisição, cabeçalhos ou enquadramento do corpo).' };
}

/** The in-flight request's correlation id when there is one, else a new one. */
function correlationIdFor(socket: Duplex): string {
  const request = (socket as { _httpMessage?: { req?: IncomingMessage } })._httpMessage?.req;
  return request ? correlationIdOf({ headers: request.headers } as FastifyRequest) : randomUUID();
}

/**
 * A lingering close: closing a socket with the client's bytes still unread (a refused body it is
 * still sending) makes the kernel answer with RST, and the RST discards our answer from the
 * client's receive buffer before it is read (ECONNRESET or EPIPE instead of the 413). So the
 * answer ends with FIN, and what still comes is read and thrown away, not parsed (a request
 * pipelined after it would be served with no way to answer), until the client closes too (the
 * socket then ends itself), pauses for LINGER_IDLE_MS, has lingered LINGER_MAX_MS, or has sent
 * LINGER_MAX_BYTES (a client streaming for ever cannot hold the socket).
 */
function lingeringClose(socket: Duplex, answer?: string): void {
  let drained = 0;
  const destroy = () => socket.destroy();
  const idle = setTimeout(destroy, LINGER_IDLE_MS).unref();
  const total = setTimeout(destroy, LINGER_MAX_MS).unref();
  socket.once('close', () => {
    clearTimeout(idle);
    clearTimeout(total);
  });
  socket.removeAllListeners('data'); // Node's HTTP parser, when it reads through events
  // Adding a listener also takes the socket from a parser consuming it directly (Node's own hook).
  socket.on('data', (chunk: Buffer) => {
    if ((drained += chunk.length) > LINGER_MAX_BYTES) destroy();
    else idle.refresh();
  });
  // The handle may be stopped (a body nobody read) while the stream still thinks it is reading.
  const handle = (socket as { _handle?: { reading?: boolean; readStart?: () => number } })._handle;
  if (handle?.readStart && !handle.reading) handle.reading = handle.readStart() === 0;
  socket.resume();
  socket.end(answer);
}

/**
 * Fastify's `clientErrorHandler`: Node's parser refused the bytes (oversized or malformed
 * headers, unknown method, NUL in the request line, bad Content-Length or chunking) or the
 * request timed out. No request object exists to answer through, so the problem is written on
 * the socket by hand, with `Connection: close`, and the socket is closed (its framing is lost).
 * Bytes refused after whole requests pipelined before them are answered after those requests'
 * answers (RFC 9112 §9.3.2): answering at once ended the connection under a PUT still being
 * stored, whose client then saw only this error.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (answered.has(socket)) return; // the parser reports again on every further chunk
  answered.add(socket);
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return void socket.destroy();
  const { status, detail } = describe(error.code);
  const correlationId = correlationIdFor(socket);
  afterEarlierAnswers(socket, (inFlight) => {
    // Part of the refused request's own answer is already out (a 413 sent while its body still
    // streams): appending ours would corrupt it.
    if (inFlight?.headersSent || socket.destroyed || !socket.writable) return void socket.destroy();
    logger.debug(`[cid=${correlationId}] refused at the HTTP parser: ${error.code ?? error.message} → ${status}`);
    lingeringClose(socket, rawProblemResponse(problemForStatus(status, correlationId, detail)));
  });
}

/** How long refused bytes wait for the answers of the requests before them; then the connection is dropped. */
const EARLIER_ANSWERS_MAX_MS = 60_000;

/**
 * Runs `then` once every answer to a request parsed whole before the refused bytes has been
 * written. `then` gets the response still in flight when that response's own request is not
 * whole: the refused bytes are its body (bad chunking) or it timed out, so it is the refused one.
 */
function afterEarlierAnswers(socket: Duplex, then: (inFlight?: ServerResponse) => void, deadline = Date.now() + EARLIER_ANSWERS_MAX_MS): void {
  const current = (socket as { _httpMessage?: ServerResponse & { req?: IncomingMessage } })._httpMessage;
  const waitsForEarlier = current && !current.writableFinished && current.req?.complete === true;
  if (!waitsForEarlier && !hasPipelinedRequests(socket as Socket)) return then(current && !current.writableFinished ? current : undefined);
  if (Date.now() > deadline || socket.destroyed) return void socket.destroy();
  // The next queued answer takes the socket as the one before finishes: look again after that.
  // An answer that never finishes (its client stopped reading) costs the connection at the deadline.
  let looked = false;
  const giveUp = setTimeout(() => socket.destroy(), Math.max(0, deadline - Date.now())).unref();
  const again = () => {
    clearTimeout(giveUp);
    if (!looked) setImmediate(() => afterEarlierAnswers(socket, then, deadline));
    looked = true;
  };
  if (waitsForEarlier) current.once('finish', again).once('close', again);
  else setTimeout(again, 1);
}

/**
 * What Node answers itself, outside any Fastify route, made a problem too (and no `100
 * Continue` for a body over `bodyLimit`): a missing Host
 * (checked with the duplicates instead, see duplicate-headers.ts), an `Expect` other than
 * 100-continue (Node's bare 417), and CONNECT (Node would drop the connection unanswered).
 * Pipelined requests run in turn (pipelining.ts).
 */
export function installServerEdge(server: Server, bodyLimit = Infinity): void {
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  installPipelineOrder(server);
  // A body declared larger than we take gets its 413 before it is sent: Node's automatic
  // `100 Continue` invited the upload, and closing under it could cost the client the answer.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (!(Number(request.headers['content-length']) > bodyLimit)) response.writeContinue();
    server.emit('request', request, response);
  });
  // An Expect other than 100-continue goes through the routes like any request, to be refused
  // there (installHeaderChecks: 417) as the route speaks; Node would answer a bare 417 itself.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => void server.emit('request', request, response));
  // Node closes the connection after a `Connection: close` answer (Fastify's 413 for a body over
  // bodyLimit, our 503 while closing) with socket.destroySoon(); if the request's body is still
  // coming, that close is made a lingering one, so the client reads the answer instead of a reset.
  server.prependListener('request', (request: IncomingMessage) => {
    const socket = request.socket as Socket;
    socket.destroySoon = () => (request.complete ? Socket.prototype.destroySoon.call(socket) : lingeringClose(socket));
  });
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const problem = problemForStatus(405, correlationIdOf({ headers: request.headers } as FastifyRequest), 'Método não permitido para este recurso.');
    socket.on('error', () => undefined);
    lingeringClose(socket, rawProblemResponse(problem));
  });
}
