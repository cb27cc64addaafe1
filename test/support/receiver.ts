import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** One request as the webhook receiver saw it. */
export interface Received {
  method: string;
  /** Path and query as sent, e.g. `/hook/pix`. */
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: any;
  receivedAt: number;
  /** When our answer was finished or the client hung up. */
  endedAt?: number;
  /** The status we answered (undefined while delayed, or when the sender hung up first). */
  status?: number;
}

export interface Reply {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
}

/** Decides each answer; `index` counts every request the receiver has seen (0-based). */
export type Responder = (request: Received, index: number) => Reply;

/**
 * An HTTP or HTTPS server on 127.0.0.1 standing in for a customer's webhook endpoint: records
 * every request, answers as scripted (status sequences, delays), can go down (connection
 * refused) and come back up on the same port.
 */
export class Receiver {
  readonly requests: Received[] = [];
  responder: Responder = () => ({ status: 200 });
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly listeners = new Set<(r: Received) => void>();
  private server: http.Server;
  private port = 0;

  private constructor(private readonly tls?: { key: Buffer; cert: Buffer }) {
    this.server = this.createServer();
  }

  static async start(options: { tls?: { key: Buffer; cert: Buffer }; responder?: Responder } = {}): Promise<Receiver> {
    const receiver = new Receiver(options.tls);
    if (options.responder) receiver.responder = options.responder;
    await receiver.listen();
    return receiver;
  }

  /** Base URL without a trailing slash, e.g. `https://127.0.0.1:40123`. */
  get url(): string {
    return `${this.tls ? 'https' : 'http'}://127.0.0.1:${this.port}`;
  }

  /** Answers `statuses` in turn to the requests `match` selects, then 200. */
  sequence(match: (r: Received) => boolean, statuses: number[], delayMs = 0): void {
    const previous = this.responder;
    let next = 0;
    this.responder = (r, i) => (match(r) ? { status: next < statuses.length ? statuses[next++] : 200, delayMs } : previous(r, i));
  }

  /** Calls `listener` synchronously on every request (e.g. to kill a process at an exact count). */
  onRequest(listener: (r: Received) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Requests carrying a Pix with this endToEndId. */
  forEndToEndId(e2eid: string): Received[] {
    return this.requests.filter((r) => r.json?.pix?.some?.((p: any) => p.endToEndId === e2eid));
  }

  /** Polls until `predicate` holds or `timeoutMs` passes; then fails with `what`. */
  async waitUntil(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
    for (const deadline = Date.now() + timeoutMs; !predicate(); ) {
      if (Date.now() > deadline) throw new Error(`receiver: ${what} not seen within ${timeoutMs} ms (${this.requests.length} requests so far)`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Stops listening and drops open connections: senders now get ECONNREFUSED. */
  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server = this.createServer();
  }

  /** Listens again on the same port. */
  up(): Promise<void> {
    return this.listen(this.port);
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    for (const s of this.sockets) s.destroy();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private createServer(): http.Server {
    const server = this.tls ? https.createServer({ key: this.tls.key, cert: this.tls.cert }) : http.createServer();
    server.keepAliveTimeout = 60_000;
    server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    server.on('request', (req, res) => this.handle(req, res));
    return server;
  }

  private listen(port = 0): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: any;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const received: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json, receivedAt: Date.now() };
      const index = this.requests.push(received) - 1;
      res.on('close', () => (received.endedAt = Date.now()));
      for (const l of this.listeners) l(received);
      const reply = this.responder(received, index);
      const answer = () => {
        if (res.destroyed) return; // the sender hung up (timed out or died) before our answer
        received.status = reply.status;
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end('{}');
      };
      if (!reply.delayMs) return answer();
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        answer();
      }, reply.delayMs);
      this.timers.add(timer);
    });
  }
}

/**
 * A self-signed certificate for 127.0.0.1/localhost made with the openssl CLI in a temp dir.
 * `caPath` is the PEM file a sender trusts (WEBHOOK_CA); `remove()` deletes the dir.
 */
export function selfSignedCertificate(): { key: Buffer; cert: Buffer; caPath: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-receiver-tls-'));
  try {
    writeFileSync(
      path.join(dir, 'openssl.cnf'),
      [
        '[req]',
        'distinguished_name = dn',
        'x509_extensions = ext',
        'prompt = no',
        '[dn]',
        'CN = 127.0.0.1',
        '[ext]',
        'basicConstraints = critical, CA:TRUE',
        'keyUsage = critical, digitalSignature, keyEncipherment, keyCertSign',
        'extendedKeyUsage = serverAuth',
        'subjectAltName = IP:127.0.0.1, DNS:localhost',
        '',
      ].join('\n'),
    );
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2', '-config', 'openssl.cnf'], { cwd: dir, stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    key: readFileSync(path.join(dir, 'key.pem')),
    cert: readFileSync(path.join(dir, 'cert.pem')),
    caPath: path.join(dir, 'cert.pem'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
