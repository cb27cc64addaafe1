import type { ExecutionContext } from '@nestjs/common';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/config';
import { addressKey, installAddressRateLimit, RateLimitGuard, RateLimits } from './rate-limit';
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

describe('address limit (Fastify hooks)', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    app = Fastify();
    installAddressRateLimit(app, new RateLimits({ rateLimit: { perSecond: 1, burst: 2 } } as AppConfig));
    // Stands in for the auth guard: "Bearer good" authenticates.
    app.get('/v2/x', async (request, reply) => {
      if (request.headers.authorization === 'Bearer good') (request as { auth?: object }).auth = { clientId: 'c' };
      else reply.status(401);
      return {};
    });
    app.post('/oauth/token', async () => ({}));
    app.get('/health', async () => ({}));
    await app.ready();
  });
  afterEach(() => app.close());
  const send = (method: 'GET' | 'POST', url: string, options: { ip?: string; bearer?: string } = {}) =>
    app.inject({ method, url, remoteAddress: options.ip ?? '198.51.100.1', headers: options.bearer ? { authorization: `Bearer ${options.bearer}` } : {} });
  const statuses = async (n: number, fn: () => ReturnType<typeof send>) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await fn()).statusCode);
    return out;
  };

  it('charges requests without a token at once, the token endpoint included; other addresses unaffected', async () => {
    expect(await statuses(3, () => send('POST', '/oauth/token'))).toEqual([200, 200, 429]);
    const refused = await send('GET', '/v2/x');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toMatchObject({ type: 'about:blank', title: 'Too Many Requests', status: 429 });
    expect((await send('GET', '/v2/x', { ip: '198.51.100.2' })).statusCode).toBe(401);
  });

  it('never spends the address on valid tokens; bad tokens are charged after their 401', async () => {
    expect(await statuses(10, () => send('GET', '/v2/x', { bearer: 'good' }))).toEqual(Array(10).fill(200));
    expect(await statuses(3, () => send('GET', '/v2/x', { bearer: 'forged' }))).toEqual([401, 401, 429]);
    // Once the address is over, even a valid token from it waits (the client limit is the guard's).
    expect((await send('GET', '/v2/x', { bearer: 'good' })).statusCode).toBe(429);
  });

  it('admits junk tokens sent all at once only as far as the bucket can pay for them (they were all admitted, then charged)', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => send('GET', '/v2/x', { bearer: 'forged' })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([401, 401, ...Array(8).fill(429)]);
    // Each hold ended with its request: a later valid request from another address is not affected, and this address is spent.
    expect((await send('GET', '/v2/x', { bearer: 'forged', ip: '198.51.100.9' })).statusCode).toBe(401);
    expect((await send('GET', '/v2/x', { bearer: 'forged' })).statusCode).toBe(429);
  });

  it('never limits /health', async () => {
    await statuses(3, () => send('GET', '/v2/x'));
    expect(await statuses(20, () => send('GET', '/health'))).toEqual(Array(20).fill(200));
  });
});

describe('RateLimitGuard', () => {
  const limits = new RateLimits({ rateLimit: { perSecond: 1, burst: 2 } } as AppConfig);
  const guard = new RateLimitGuard(limits);
  const context = (request: object) => ({ switchToHttp: () => ({ getRequest: () => request }) }) as unknown as ExecutionContext;
  const authed = (clientId: string) => context({ ip: '198.51.100.1', url: '/v2/cobv', auth: { clientId } });

  it('charges an authenticated request to its client: another client on the same address is unaffected', () => {
    for (let i = 0; i < 2; i++) expect(guard.canActivate(authed('alpha'))).toBe(true);
    expect(() => guard.canActivate(authed('alpha'))).toThrow(TooManyRequestsError);
    for (let i = 0; i < 2; i++) expect(guard.canActivate(authed('beta'))).toBe(true);
  });

  it('lets unauthenticated requests through (the address limit has them)', () => {
    for (let i = 0; i < 10; i++) expect(guard.canActivate(context({ url: '/oauth/token' }))).toBe(true);
    expect(limits.byAddress.size).toBe(0);
  });
});
