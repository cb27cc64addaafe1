import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/** One request as the receiver saw it. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  receivedAt: number;
  /** When the exchange ended (answered or the client hung up), ms since epoch. */
  endedAt?: number;
  /** Whether our answer was fully sent (false: the sender gave up first). */
  answered?: boolean;
  /** The TLS client certificate subject CN, when mTLS is in use. */
  clientCn?: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
  /** The answer (after `delayMs`) waits for this too. */
  after?: Promise<void>;
}

export type Responder = (request: ReceivedRequest, index: number) => Reply;

/**
 * A real HTTP(S) server on 127.0.0.1 for the delivery tests: records every request, answers as
 * `responder` says (optionally after a delay), and tracks how many requests are open at once.
 */
export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  responder: Responder = () => ({ status: 200 });
  inFlight = 0;
  maxInFlight = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: http.Server | https.Server,
    private readonly scheme: 'http' | 'https',
  ) {}

  static async start(options: { port?: number; tls?: https.ServerOptions; responder?: Responder } = {}): Promise<TestReceiver> {
    const server = options.tls ? https.createServer(options.tls) : http.createServer();
    const receiver = new TestReceiver(server, options.tls ? 'https' : 'http');
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => receiver.handle(req, res));
    if (options.responder) receiver.responder = options.responder;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    return receiver;
  }

  get baseUrl(): string {
    return `${this.scheme}://127.0.0.1:${this.port}`;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  byId(id: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.headers['webhook-id'] === id);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const socket = req.socket as import('node:tls').TLSSocket;
      const cn = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate()?.subject?.CN : undefined;
      const request: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
        clientCn: Array.isArray(cn) ? cn[0] : cn,
      };
      const index = this.requests.push(request) - 1;
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      res.on('close', () => {
        this.inFlight -= 1;
        request.endedAt = Date.now();
        request.answered = res.writableFinished;
      });
      const reply = this.responder(request, index);
      const answer = () => {
        if (!res.destroyed) res.writeHead(reply.status, reply.headers ?? {}).end();
      };
      const respond = () => {
        if (!reply.delayMs) return answer();
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          answer();
        }, reply.delayMs);
        this.timers.add(timer);
      };
      if (reply.after) void reply.after.then(respond);
      else respond();
    });
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
