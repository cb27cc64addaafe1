import { isIP } from 'node:net';
import { problemForStatus, replyWithProblem } from '@pix/http-edge';
import { correlationIdOf } from '@pix/observability';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/config';

/** `host[:port]`, `[v6]:port` → the host part, lowercase. */
export function hostnameOf(host: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  return (bracketed ? bracketed[1] : host.replace(/:\d+$/, '')).toLowerCase();
}

/**
 * Local mode answers only requests addressed to this machine: an IP address, `localhost` (and
 * `*.localhost`), or the names it is configured with (HOST, LOCATION_HOST). A web page whose own
 * name an attacker points at 127.0.0.1 (DNS rebinding) would otherwise read `/sandbox/session`,
 * the sandbox client's secret, and use the API with it; an IP address cannot be rebound.
 */
export function localHostAllowed(host: string | undefined, config: Pick<AppConfig, 'host' | 'locationHost'>): boolean {
  if (host === undefined) return true; // HTTP/1.0 without Host: nothing a browser sends
  if (host === '') return false;
  const name = hostnameOf(host);
  if (isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost')) return true;
  return name === hostnameOf(config.host) || name === hostnameOf(config.locationHost);
}

/**
 * The request's target as RFC 9112 §3.2.2 reads it: an absolute-form target's authority
 * (`GET http://name/path`) overrides Host, so both must be this machine.
 */
export function localTargetAllowed(rawUrl: string | undefined, host: string | undefined, config: Pick<AppConfig, 'host' | 'locationHost'>): boolean {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(rawUrl ?? '');
  if (absolute && !localHostAllowed(absolute[1].replace(/^.*@/, ''), config)) return false;
  return localHostAllowed(host, config);
}

export function installLocalHostCheck(fastify: FastifyInstance, config: AppConfig): void {
  if (config.mode !== 'local') return;
  fastify.addHook('onRequest', (request, reply, done) => {
    if (localTargetAllowed(request.raw.url, request.headers.host, config)) return done();
    replyWithProblem(
      reply,
      problemForStatus(403, correlationIdOf(request), `Host ${String(request.headers.host).slice(0, 80)} não é este servidor local: use localhost, um endereço IP, ou o nome em HOST ou LOCATION_HOST.`),
    );
  });
}
