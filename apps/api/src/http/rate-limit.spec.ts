import type { ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/config';
import { addressKey, chargeAddress, RateLimitGuard, RateLimits } from './rate-limit';
import { TooManyRequestsError } from './too-many-requests';

describe('rate-limit keys', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:aa:bb:1:2:3:4', '2001:db8:aa:bb::/64'],
    ['2001:db8:aa:bb::9', '2001:db8:aa:bb::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s is charged as %s', (ip, key) => expect(addressKey(ip)).toBe(key));

  it('two addresses in one IPv6 /64 share a bucket; other /64s do not', () => {
    expect(addressKey('2001:db8:1:2::a')).toBe(addressKey('2001:db8:1:2:ffff::b'));
    expect(addressKey('2001:db8:1:2::a')).not.toBe(addressKey('2001:db8:1:3::a'));
  });
});

describe('RateLimitGuard', () => {
  const limits = new RateLimits({ rateLimit: { perSecond: 1, burst: 2 } } as AppConfig);
  const guard = new RateLimitGuard(limits);
  const context = (request: object) => ({ switchToHttp: () => ({ getRequest: () => request }) }) as unknown as ExecutionContext;
  /** A request as it reaches the guards: address charged by the hook, client set by the auth guard. */
  const arrive = (ip: string, clientId?: string) => {
    const request = { ip, url: '/v2/cobv', ...(clientId ? { auth: { clientId } } : {}) } as unknown as FastifyRequest;
    return { request, address: chargeAddress(limits, request) };
  };

  it('charges an authenticated request to its client (not its address): another client is unaffected', () => {
    for (let i = 0; i < 2; i++) expect(guard.canActivate(context(arrive('198.51.100.1', 'alpha').request))).toBe(true);
    expect(() => guard.canActivate(context(arrive('198.51.100.1', 'alpha').request))).toThrow(TooManyRequestsError);
    // Same address, other client: the address bucket was refunded each time, so beta gets its burst.
    for (let i = 0; i < 2; i++) expect(guard.canActivate(context(arrive('198.51.100.1', 'beta').request))).toBe(true);
  });

  it('leaves unauthenticated requests charged to their address (the token endpoint included)', () => {
    const first = arrive('198.51.100.2');
    expect(guard.canActivate(context({ ...first.request, url: '/oauth/token' }))).toBe(true);
    arrive('198.51.100.2');
    expect(arrive('198.51.100.2').address.allowed).toBe(false);
    expect(arrive('198.51.100.3').address.allowed).toBe(true);
  });
});
