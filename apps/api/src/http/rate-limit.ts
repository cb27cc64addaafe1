import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addressKey } from '@pix/http-edge';
import { performance } from 'node:perf_hooks';
import { authContextOf } from '../auth/auth-context';
import type { AppConfig } from '../config/config';
import { CONFIG } from '../infrastructure/tokens';
import { sendProblem } from './problem.filter';
import { RateLimiter } from './rate-limiter';
import { TooManyRequestsError } from './too-many-requests';

/**
 * Two sets of buckets: per authenticated client, and per remote address for requests that do
 * not authenticate (floods of bad tokens, the token endpoint, unknown paths). Time comes from a
 * monotonic source, not the app's Clock: tests move that one freely.
 */
@Injectable()
export class RateLimits {
  readonly byAddress: RateLimiter;
  readonly byClient: RateLimiter;
  /** Per address, requests with a bearer token not yet known to be valid (see installAddressRateLimit). */
  readonly unproven = new Map<string, number>();

  constructor(@Inject(CONFIG) config: AppConfig) {
    const options = { ...config.rateLimit, now: () => performance.now() };
    this.byAddress = new RateLimiter(options);
    this.byClient = new RateLimiter(options);
  }
}

export { addressKey } from '@pix/http-edge';

const DEFERRED = Symbol('rateLimitDeferredAddress');
const RELEASE = Symbol('rateLimitRelease');
type Deferred = FastifyRequest & { [DEFERRED]?: string; [RELEASE]?: () => void };
const isHealth = (url: string) => /^\/health(\/ready|\/live)?\/?(\?|$)/.test(url);
const hasBearer = (request: FastifyRequest) => /^bearer\s/i.test(request.headers.authorization ?? '');

/**
 * The address limit, before any body is read. A request without a bearer token (the token
 * endpoint's included) is charged at once. One with a token is only refused if the address is
 * already over, and charged after the answer if the token turned out bad: valid clients never
 * spend their address's tokens, so several behind one gateway do not share a limit. Until its
 * token is checked such a request counts against the address: many sent at once are admitted
 * only as far as the bucket could pay for all of them (they all passed the same look at the
 * bucket before any was charged, so junk tokens sent concurrently went five times past the limit).
 */
export function installAddressRateLimit(fastify: FastifyInstance, limits: RateLimits): void {
  if (!limits.byAddress.enabled) return;
  fastify.addHook('onRequest', (request, reply, done) => {
    if (isHealth(request.url)) return done();
    const key = addressKey(request.ip);
    const bearer = hasBearer(request);
    const unproven = limits.unproven.get(key) ?? 0;
    const decision = bearer ? limits.byAddress.peek(key, unproven + 1) : limits.byAddress.take(key);
    if (!decision.allowed) return sendProblem(new TooManyRequestsError(decision.retryAfterMs), request, reply);
    if (bearer) {
      (request as Deferred)[DEFERRED] = key;
      limits.unproven.set(key, unproven + 1);
      let held = true;
      const release = ((request as Deferred)[RELEASE] = () => {
        if (!held) return;
        held = false;
        const n = (limits.unproven.get(key) ?? 1) - 1;
        if (n > 0) limits.unproven.set(key, n);
        else limits.unproven.delete(key);
      });
      // Whatever ends the request (answered, refused, the client gone), the hold ends with it.
      reply.raw.once('close', release);
    }
    done();
  });
  fastify.addHook('onResponse', (request, _reply, done) => {
    const key = (request as Deferred)[DEFERRED];
    if (key !== undefined && !authContextOf(request)) limits.byAddress.take(key);
    done();
  });
}

/** Runs after the auth guard (registration order): an authenticated request is charged to its client. */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly limits: RateLimits) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const auth = authContextOf(request);
    if (!auth || isHealth(request.url)) return true;
    // A valid token: the request no longer counts against its address.
    (request as Deferred)[RELEASE]?.();
    const decision = this.limits.byClient.take(auth.clientId);
    if (!decision.allowed) throw new TooManyRequestsError(decision.retryAfterMs);
    return true;
  }
}
