import { Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inRequestContext, loggablePath } from './request-context';

/**
 * One line per answered request: method, path (no query string), status, duration and the
 * authenticated client; the logger adds the correlation id. Never headers, bodies or secrets.
 */
export function installAccessLog(fastify: FastifyInstance, options: { clientOf?: (request: FastifyRequest) => string | undefined; logger?: Logger } = {}): void {
  const logger = options.logger ?? new Logger('Access');
  fastify.addHook('onResponse', (request, reply, done) => {
    // Load balancers poll health every few seconds: only a failing check is worth a line.
    if (reply.statusCode < 300 && /^\/health(\/ready|\/live)?\/?$/.test(request.url.split('?')[0])) return done();
    const clientId = options.clientOf?.(request);
    const line = `${request.method} ${loggablePath(request)} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms${clientId ? ` client=${clientId}` : ''}`;
    inRequestContext(request, () => logger.log(line));
    done();
  });
}
