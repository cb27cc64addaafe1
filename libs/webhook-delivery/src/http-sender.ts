import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { createSecureContext } from 'node:tls';
import type { DeliveryTlsOptions } from './config';
import { urlForLog } from './log-url';
import { isPrivateLiteralTarget, safeLookup } from './safe-target';

export interface SendResult {
  statusCode: number | null;
  /** Raw Retry-After header of the answer, if any. */
  retryAfter?: string;
  /** Set for time-outs, connection/TLS errors and non-2xx answers worth a note. */
  error: string | null;
  latencyMs: number;
}

/** Keep-alive agents: one per scheme; the https one carries the mTLS client identity and CA. */
export class HttpSender {
  private readonly httpAgent = new http.Agent({ keepAlive: true });
  private readonly httpsAgent: https.Agent;

  constructor(
    private readonly timeoutMs: number,
    tls: DeliveryTlsOptions | undefined,
    /** Production refuses targets on private, loopback or reserved addresses, checked at connect time. */
    private readonly allowPrivateTargets = false,
    /** Connect-time resolution that refuses private answers (injectable so tests need no DNS). */
    private readonly lookup: net.LookupFunction = safeLookup,
  ) {
    // One TLS context for every connection: from cert/key/ca node builds a new one per connection
    // (the CA bundle parsed again each time), which showed in a burst's profile as lanes opened sockets.
    this.httpsAgent = new https.Agent({ keepAlive: true, secureContext: createSecureContext({ cert: tls?.cert, key: tls?.key, ca: tls?.ca }) });
  }

  /**
   * POSTs `body` and resolves (never rejects) once the answer has been read or the whole-request
   * deadline has passed; on time-out the socket is destroyed, so nothing of ours is left in flight.
   * Redirects are never followed (node's client does not): a 3xx is a failed attempt, and its
   * Location (which could point anywhere, internal addresses included) is only noted, as the logs
   * show a URL: the error is stored and shown to operators, and a query there may carry a token.
   */
  send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
    let target: URL;
    try {
      target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`unsupported scheme ${target.protocol}`);
      if (!this.allowPrivateTargets && isPrivateLiteralTarget(target)) throw new Error(`target ${target.hostname} is a private, loopback or reserved address`);
    } catch (error) {
      return Promise.resolve({ statusCode: null, error: `invalid webhook URL: ${(error as Error).message}`, latencyMs: 0 });
    }
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      // Handlers below only run after `timer` is set (all are asynchronous events).
      const finish = (result: Omit<SendResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, latencyMs: elapsed() });
      };
      const isHttps = target.protocol === 'https:';
      const request = (isHttps ? https : http).request(target, {
        method: 'POST',
        agent: isHttps ? this.httpsAgent : this.httpAgent,
        ...(this.allowPrivateTargets ? {} : { lookup: this.lookup }),
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      });
      const timer = setTimeout(() => {
        finish({ statusCode: null, error: `timeout after ${this.timeoutMs} ms` });
        request.destroy(new Error('timeout'));
      }, this.timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) => {
        finish({ statusCode: null, error: (error.code ? `${error.code}: ${error.message}` : error.message).trim() });
      });
      request.on('response', (response) => {
        const statusCode = response.statusCode ?? null;
        const retryAfter = header(response.headers['retry-after']);
        const location = header(response.headers.location);
        const answered = () => {
          let error: string | null = null;
          if (statusCode !== null && statusCode >= 300 && statusCode < 400) error = `HTTP ${statusCode}: redirect not followed${location ? ` (Location: ${locationForLog(location, target)})` : ''}`;
          else if (statusCode === null || statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
          finish({ statusCode, retryAfter, error });
        };
        // Drain (and ignore) the body so the keep-alive socket can be reused, up to a bound: past it
        // the status stands and the connection is dropped, not read to the end.
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          if ((read += chunk.length) <= MAX_ANSWER_BYTES) return;
          answered();
          request.destroy();
        });
        response.on('error', (error) => finish({ statusCode, retryAfter, error: `response aborted: ${error.message}` }));
        response.on('end', answered);
      });
      request.end(body);
    });
  }

  /** Closes idle keep-alive sockets (call after the last send). */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/**
 * The most of a receiver's answer read: only its status and headers count. An endless or huge body
 * read until the timeout kept this one thread busy for every key (hostile-receiver audit: with 20
 * such receivers another key's p50 went from 10-14 ms to 546 ms).
 */
const MAX_ANSWER_BYTES = 64 * 1024;

/** A Location, relative ones resolved against the request's URL, without query or userinfo. */
function locationForLog(location: string, base: URL): string {
  try {
    return urlForLog(new URL(location, base).href);
  } catch {
    return '(invalid url)';
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
