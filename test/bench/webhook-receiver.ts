/**
 * Item 5's webhook endpoint: an https server in the bench process (self-signed certificate made
 * with the openssl CLI; the notifier trusts it through WEBHOOK_CA) that answers every POST 200 at
 * once (or after a delay set per path, a slow receiver) and reports, by endToEndId, when each
 * one's body was fully received.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Wall-clock milliseconds with sub-millisecond resolution (comparable with other processes' Date.now()). */
export const epochMs = () => performance.timeOrigin + performance.now();

export interface Tls {
  key: Buffer;
  cert: Buffer;
  caPath: string;
  remove(): void;
}

/** A certificate for 127.0.0.1, valid 2 days, that is its own CA. */
export function selfSignedCertificate(): Tls {
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-bench-tls-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const cnf = ['[req]', 'distinguished_name = dn', 'x509_extensions = ext', 'prompt = no', '[dn]', 'CN = 127.0.0.1', '[ext]', 'basicConstraints = critical, CA:TRUE'];
    cnf.push('keyUsage = critical, digitalSignature, keyEncipherment, keyCertSign', 'extendedKeyUsage = serverAuth', 'subjectAltName = IP:127.0.0.1, DNS:localhost', '');
    writeFileSync(path.join(dir, 'openssl.cnf'), cnf.join('\n'));
    const args = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2', '-config', 'openssl.cnf'];
    execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    return { key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')), caPath: path.join(dir, 'cert.pem'), remove };
  } catch (error) {
    remove();
    throw error;
  }
}

export class WebhookReceiver {
  /** POSTs received (any path), and Pix whose endToEndId had already been received. */
  received = 0;
  duplicates = 0;
  private readonly waiting = new Map<string, (at: number) => void>();
  private readonly seen = new Set<string>();
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Answer delay by path prefix, e.g. `/slow` → 1000: that key's receiver answers 200 after 1 s. */
  readonly delays = new Map<string, number>();

  private constructor(
    private readonly server: https.Server,
    readonly url: string,
  ) {}

  static async start(tls: Tls): Promise<WebhookReceiver> {
    const server = https.createServer({ key: tls.key, cert: tls.cert });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const receiver = new WebhookReceiver(server, `https://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('connection', (s: Socket) => {
      receiver.sockets.add(s);
      s.on('close', () => receiver.sockets.delete(s));
    });
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = epochMs();
        const answer = () => void (res.destroyed || res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
        const delay = [...receiver.delays].find(([prefix]) => req.url?.startsWith(prefix))?.[1];
        if (!delay) answer();
        else {
          const timer = setTimeout(() => {
            receiver.timers.delete(timer);
            answer();
          }, delay);
          receiver.timers.add(timer);
        }
        receiver.arrived(Buffer.concat(chunks).toString('utf8'), at);
      });
    });
    return receiver;
  }

  /** Resolves with the arrival time (epochMs) of the first POST carrying `e2eid`; rejects after `timeoutMs`. */
  expect(e2eid: string, timeoutMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(e2eid);
        reject(new Error(`no webhook POST for ${e2eid} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(e2eid, (at) => {
        clearTimeout(timer);
        resolve(at);
      });
    });
  }

  /** Pix carried by the webhook POSTs (a batched POST carries several), for the mean batch size. */
  items = 0;
  webhookPosts = 0;
  /** The most Pix one webhook POST carried (set to 0 to watch a phase; 1 when batching is off). */
  largestPost = 0;
  /** Pix nobody waited for: another publisher on the same broker and key, or one that came after its time-out. */
  unexpected = 0;

  /** Every Pix in the body counts (batched callbacks); a repeated endToEndId is a duplicate, as a receiver would drop it. */
  private arrived(body: string, at: number): void {
    this.received++;
    let ids: string[];
    try {
      ids = ((JSON.parse(body)?.pix ?? []) as { endToEndId?: string }[]).map((p) => p?.endToEndId ?? '');
    } catch {
      return;
    }
    if (ids.length === 0 || ids[0].startsWith('R')) return; // raw-POST ceiling bodies
    this.webhookPosts++;
    this.largestPost = Math.max(this.largestPost, ids.length);
    for (const e2eid of ids) {
      if (!e2eid) continue;
      this.items++;
      if (this.seen.has(e2eid)) this.duplicates++;
      else if (!this.waiting.has(e2eid)) this.unexpected++;
      this.seen.add(e2eid);
      const done = this.waiting.get(e2eid);
      this.waiting.delete(e2eid);
      done?.(at);
    }
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    for (const s of this.sockets) s.destroy();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
