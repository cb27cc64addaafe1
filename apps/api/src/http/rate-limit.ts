import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { performance } from 'node:perf_hooks';
import { authContextOf } from '../auth/auth-context';
import type { AppConfig } from '../config/config';
import { CONFIG } from '../infrastructure/tokens';
import { sendProblem } from './problem.filter';
import { RateLimiter, type RateDecision } from './rate-limiter';
import { TooManyRequestsError } from './too-many-requests';

/**
 * The two sets of buckets: per remote address for every request (so floods that never
 * authenticate, the token endpoint's included, are limited too) and per authenticated client.
 * Time comes from a monotonic source, not the app's Clock: tests move that one freely.
 */
@Injectable()
export class RateLimits {
  readonly byAddress: RateLimiter;
  readonly byClient: RateLimiter;

  constructor(@Inject(CONFIG) config: AppConfig) {
    const options = { ...config.rateLimit, now: () => performance.now() };
    this.byAddress = new RateLimiter(options);
    this.byClient = new RateLimiter(options);
  }
}

const CHARGED = Symbol('rateLimitAddressKey');
type Charged = FastifyRequest & { [CHARGED]?: string };

/** One IPv4 address, or an IPv6 /64 (what one subscriber usually holds). */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head, tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

const isHealth = (url: string) => url === '/health' || url.startsWith('/health?');

/** Takes a token from the request's address bucket and remembers it (a guard may give it back). */
export function chargeAddress(limits: RateLimits, request: FastifyRequest): RateDecision {
  const key = addressKey(request.ip);
  const decision = limits.byAddress.take(key);
  if (decision.allowed) (request as Charged)[CHARGED] = key;
  return decision;
}

/** Charges the remote address before anything else runs; health checks are never limited. */
export function installAddressRateLimit(fastify: FastifyInstance, limits: RateLimits): void {
  if (!limits.byAddress.enabled) return;
  fastify.addHook('onRequest', (request, reply, done) => {
    if (isHealth(request.url)) return done();
    const decision = chargeAddress(limits, request);
    if (!decision.allowed) return sendProblem(new TooManyRequestsError(decision.retryAfterMs), request, reply);
    done();
  });
}

/**
 * Runs after the auth guard: an authenticated request is charged to its client instead of its
 * address, so clients sharing an address (a gateway) do not share a limit.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly limits: RateLimits) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Charged>();
    const auth = authContextOf(request);
    if (!auth || !this.limits.byClient.enabled || isHealth(request.url)) return true;
    const charged = request[CHARGED];
    if (charged !== undefined) {
      this.limits.byAddress.refund(charged);
      request[CHARGED] = undefined;
    }
    const decision = this.limits.byClient.take(auth.clientId);
    if (!decision.allowed) throw new TooManyRequestsError(decision.retryAfterMs);
    return true;
  }
}
