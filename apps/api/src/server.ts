import 'reflect-metadata';
import { Logger, RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { AppLogger, correlationIdOf, installAccessLog, Metrics } from '@pix/observability';
import { installHttpEdge, installStrictInput, SERVER_DEADLINES, withHttpEdge } from '@pix/http-edge';
import { AppModule } from './app.module';
import { installAdmissionBeforeBody } from './auth/admission-before-body';
import { authContextOf } from './auth/auth-context';
import { AuthGuard } from './auth/auth.guard';
import { endpointProblem } from './http/endpoint-problems';
import { ProblemFilter, sendProblem } from './http/problem.filter';
import { hostnameOf, installLocalHostCheck } from './http/local-hosts';
import { installLocationOnlyWithoutCertificate } from './http/location-only-without-certificate';
import { installTokenErrorFormat } from './access/token/token-errors';
import { installAddressRateLimit, RateLimits } from './http/rate-limit';
import { httpsOptions } from './http/tls';
import type { InfrastructureOptions } from './infrastructure/infrastructure.module';
import type { AppConfig } from './config/config';
import { installApiMetrics } from './metrics/api-metrics';
import { installApiDocs } from './docs/docs-routes';
import { collectServedRoutes } from './docs/served-routes';
import { connectCashInConsumers } from './messaging/cash-in-consumers';
import { DASHBOARD_POLL_HEADER } from './sandbox/sandbox-dashboard.controller';

/**
 * The API's logger: JSON lines or pretty ones (LOG_FORMAT), secrets and personal data scrubbed.
 * Nest's RoutesResolver names each controller with the global prefix, even those excluded from it
 * (`HealthController {/v2/health}` for /health, `{/v2/qr/v2}` for /qr/v2): dropped, since
 * RouterExplorer's `Mapped {/health, GET} route` lines that follow show every real path.
 */
export const apiLogger = (config: AppConfig) =>
  new AppLogger({ format: config.logFormat, level: config.logLevel, base: { service: 'pix-api' }, omitContexts: ['RoutesResolver'] });

/** Builds the API on Fastify; the caller decides where it listens. */

export async function createApiApp(options: InfrastructureOptions): Promise<NestFastifyApplication> {
  const { config } = options;
  const metrics = new Metrics('pix-api');
  // Deliveries (local mode runs the notifier here) are counted through the worker's observer.
  options = { ...options, config: { ...config, delivery: { ...config.delivery, onAttempt: metrics.observeDelivery } } };
  // withHttpEdge: one trailing slash ignored, parser errors and closing answered as problems.
  const adapter = new FastifyAdapter(withHttpEdge({
    // TLS (and mTLS when a client CA is configured) is served here, not only at a proxy; plain
    // HTTP gets withHttpEdge's deadlines, HTTPS the same ones here.
    ...(config.tls ? { https: { ...httpsOptions(config.tls, hostnameOf(config.locationHost)), ...SERVER_DEADLINES } } : {}),
    bodyLimit: config.maxBodyBytes,
    trustProxy: false,
    // A URL the router cannot decode still gets a problem body, never Fastify's own JSON.
    frameworkErrors: (error: Error, request: any, reply: any) => sendProblem(Object.assign(error, { statusCode: 400 }), request, reply, new Logger('HTTP')),
  }));
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    logger: apiLogger(config),
    bufferLogs: false,
    bodyParser: false,
  });
  app.setGlobalPrefix(config.basePath.replace(/^\//, ''), { exclude: [
      { path: 'health', method: RequestMethod.GET },
      { path: 'health/ready', method: RequestMethod.GET },
      { path: 'health/live', method: RequestMethod.GET },
      { path: 'oauth/token', method: RequestMethod.POST },
      // Payload locations and their JWKS live on the location host's own path (ADR 11), not under /v2.
      { path: 'qr/{*path}', method: RequestMethod.GET },
      { path: 'sandbox/{*path}', method: RequestMethod.ALL },
      { path: 'notifier/{*path}', method: RequestMethod.ALL },
    ],
  });
  app.useGlobalFilters(new ProblemFilter());
  connectCashInConsumers(app);
  const fastify = app.getHttpAdapter().getInstance();
  const served = collectServedRoutes(fastify);
  // Order matters: the edge's refusals (closing, ambiguous headers) and the address bucket come
  // before any body is read. Log lines name their request's correlation id explicitly (ADR 17).
  installHttpEdge(fastify, { connectionsPerAddress: config.connectionsPerAddress });
  installLocationOnlyWithoutCertificate(fastify, config);
  installTokenErrorFormat(fastify);
  installLocalHostCheck(fastify, config);
  installAddressRateLimit(fastify, app.get(RateLimits));
  if (config.logRequests)
    installAccessLog(fastify, {
      clientOf: (request) => authContextOf(request)?.clientId,
      receiverOf: (request) => authContextOf(request)?.recebedor.id,
      // Local mode only: the dashboard marks its polls, and their successes are not logged (a deployment logs every request).
      ...(config.mode === 'local' ? { quietWhenOk: (request: FastifyRequest) => request.method === 'GET' && request.headers[DASHBOARD_POLL_HEADER] === '1' } : {}),
    });
  installApiMetrics(app, config, metrics);
  installAdmissionBeforeBody(fastify, app.get(AuthGuard));
  installApiDocs(fastify, served, config);
  // The API speaks JSON only: any other media type (text, forms) is a 415 problem. Nest's own
  // parsers (which add forms) are off; JSON is read by the strict parser (duplicates, depth, NUL).
  fastify.removeContentTypeParser(['text/plain']);
  installStrictInput(fastify, { problemFor: endpointProblem(config.basePath) });
  // A callback hook (no promise per response).
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-correlation-id', correlationIdOf(request));
    // An API of payment data: nothing cached, nothing sniffed or framed, no referrer leaked.
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    // A route that serves a page (the local sandbox dashboard) sets its own policy; all else gets none.
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    if (config.tls) reply.header('strict-transport-security', 'max-age=31536000');
    done(null, payload);
  });
  return app;
}
