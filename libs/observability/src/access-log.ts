import { Logger, type LogLevel } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inRequestContext, loggablePath } from './request-context';

/** Nest's ConsoleLogger and our AppLogger both answer this. */
type LevelProbe = { isLevelEnabled?: (level: LogLevel) => boolean };

export interface AccessLogOptions {
  /** The authenticated client, if any. */
  clientOf?: (request: FastifyRequest) => string | undefined;
  /** The receiver (tenant) the request acted for, if any. */
  receiverOf?: (request: FastifyRequest) => string | undefined;
  logger?: Logger;
  /**
   * Requests whose success is not worth a line (a failure always is): e.g. the local dashboard's
   * once-a-second polls, which otherwise bury a developer's own requests.
   */
  quietWhenOk?: (request: FastifyRequest) => boolean;
}

/**
 * One line per answered request: method, path (no query string), route template, status,
 * duration, client and receiver; the logger adds the correlation id. As text it reads
 * `GET /v2/cobv/x 200 3.1ms client=c`; as JSON the same facts are fields. Never headers, bodies
 * or secrets.
 */
export function installAccessLog(fastify: FastifyInstance, options: AccessLogOptions = {}): void {
  const logger = options.logger ?? new Logger('Access');
  // Asked per response (levels can change at run time); a logger that cannot say is assumed to write.
  const writes = () => (logger.localInstance as LevelProbe).isLevelEnabled?.('log') ?? true;
  fastify.addHook('onResponse', (request, reply, done) => {
    // At LOG_LEVEL=warn nobody reads the line: do not build it (a few µs on every request).
    if (!writes()) return done();
    // Load balancers poll health and Prometheus scrapes metrics every few seconds: only a failure is worth a line.
    if (reply.statusCode < 300 && (/^\/(health(\/ready|\/live)?|metrics)\/?$/.test(request.url.split('?')[0]) || options.quietWhenOk?.(request))) return done();
    const clientId = options.clientOf?.(request);
    const receiverId = options.receiverOf?.(request);
    const durationMs = Math.round(reply.elapsedTime * 10) / 10;
    const msg = `${request.method} ${loggablePath(request)} ${reply.statusCode} ${durationMs.toFixed(1)}ms${clientId ? ` client=${clientId}` : ''}`;
    const line = { msg, method: request.method, route: request.routeOptions?.url ?? null, status: reply.statusCode, durationMs, ...(clientId ? { clientId } : {}), ...(receiverId ? { receiverId } : {}) };
    inRequestContext(request, () => logger.log(line));
    done();
  });
}
