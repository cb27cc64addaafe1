import { connect } from 'node:net';

/** One HTTP/1.1 answer as read off the socket, and whether the server then closed it. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: any;
  /** The server ended the connection after this answer (within `closeWaitMs`). */
  closed: boolean;
}

/**
 * Writes `bytes` on a fresh TCP connection, exactly as given (no client library repairs or
 * refuses them), and reads the first answer. Fails if nothing complete arrives in `timeoutMs`.
 */
export function rawExchange(baseUrl: string, bytes: string | Buffer, options: { timeoutMs?: number; closeWaitMs?: number } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const { timeoutMs = 5000, closeWaitMs = 1000 } = options;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = Buffer.alloc(0);
    let answer: Omit<RawAnswer, 'closed'> | undefined;
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (answer) resolve({ ...answer, closed });
      else reject(new Error(`no complete answer${closed ? ' before the server closed the connection' : ` in ${timeoutMs} ms`}: ${JSON.stringify(received.toString('latin1').slice(0, 500))}`));
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (answer) return;
      answer = parseAnswer(received);
      // Complete: wait a moment to see whether the server keeps the connection or ends it.
      if (answer) {
        clearTimeout(timer);
        setTimeout(() => finish(false), closeWaitMs);
      }
    });
    socket.write(bytes);
  });
}

/** The first complete answer in `data` (Content-Length framing or none), if there is one yet. */
function parseAnswer(data: Buffer): Omit<RawAnswer, 'closed'> | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    const name = line.slice(0, i).trim().toLowerCase();
    headers[name] = headers[name] === undefined ? line.slice(i + 1).trim() : `${headers[name]}, ${line.slice(i + 1).trim()}`;
  }
  if (headers['transfer-encoding']) throw new Error(`unexpected chunked answer: ${statusLine}`);
  const length = Number(headers['content-length'] ?? 0);
  const bodyBytes = data.subarray(end + 4);
  if (bodyBytes.length < length) return undefined;
  const text = bodyBytes.subarray(0, length).toString('utf8');
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: the caller's assertions will say so */
  }
  return { status, headers, text, body };
}
