import { RateLimiter } from './rate-limiter';

describe('RateLimiter (token bucket per key)', () => {
  let now = 0;
  const limiter = (perSecond = 2, burst = 3, maxKeys?: number) => new RateLimiter({ perSecond, burst, maxKeys, now: () => now });
  const takeN = (l: RateLimiter, key: string, n: number) => Array.from({ length: n }, () => l.take(key).allowed);
  beforeEach(() => (now = 1_000_000));

  it('allows the burst at once, then refuses with the time until the next token', () => {
    const l = limiter(2, 3);
    expect(takeN(l, 'a', 3)).toEqual([true, true, true]);
    expect(l.take('a')).toEqual({ allowed: false, retryAfterMs: 500 });
    now += 200;
    expect(l.take('a')).toEqual({ allowed: false, retryAfterMs: 300 });
  });

  it('refills at perSecond, never past the burst', () => {
    const l = limiter(2, 3);
    takeN(l, 'a', 3);
    now += 500;
    expect(takeN(l, 'a', 2)).toEqual([true, false]);
    now += 60_000;
    expect(takeN(l, 'a', 4)).toEqual([true, true, true, false]);
  });

  it('keeps keys apart: one client at its limit does not affect another', () => {
    const l = limiter(2, 3);
    takeN(l, 'a', 3);
    expect(l.take('a').allowed).toBe(false);
    expect(takeN(l, 'b', 3)).toEqual([true, true, true]);
  });

  it('peek tells without taking', () => {
    const l = limiter(2, 3);
    expect(l.peek('a')).toEqual({ allowed: true });
    expect(l.size).toBe(0);
    takeN(l, 'a', 2);
    expect(l.peek('a')).toEqual({ allowed: true });
    expect(l.peek('a')).toEqual({ allowed: true });
    l.take('a');
    expect(l.peek('a')).toEqual({ allowed: false, retryAfterMs: 500 });
    now += 500;
    expect(l.peek('a')).toEqual({ allowed: true });
    expect(takeN(l, 'a', 2)).toEqual([true, false]);
  });

  it('perSecond 0 turns limiting off and keeps no state', () => {
    const l = limiter(0, 1);
    expect(takeN(l, 'a', 1000).every(Boolean)).toBe(true);
    expect(l.size).toBe(0);
  });

  it('drops buckets that have refilled while idle', () => {
    const l = limiter(10, 5);
    for (let i = 0; i < 100; i++) l.take(`ip-${i}`);
    expect(l.size).toBe(100);
    now += 1000; // 0.1 s refills one token: all are full again
    for (let i = 0; i < 60; i++) l.take('busy');
    expect(l.size).toBeLessThanOrEqual(100 - 50);
    for (let i = 0; i < 60; i++) l.take('busy');
    expect(l.size).toBe(1);
  });

  it('never holds more than maxKeys buckets, even under a flood of new keys', () => {
    const l = limiter(1, 2, 1000);
    for (let i = 0; i < 50_000; i++) l.take(`k${i}`);
    expect(l.size).toBe(1000);
    // The most recent keys are the ones kept, with their tokens spent.
    expect(takeN(l, 'k49999', 2)).toEqual([true, false]);
  });

  it('a key evicted for space starts afresh; an active key is kept over idle ones', () => {
    const l = limiter(1, 2, 3);
    takeN(l, 'active', 2);
    for (const k of ['x', 'y']) l.take(k);
    expect(l.take('active').allowed).toBe(false); // touched: now the most recent
    l.take('z'); // evicts the least recently used (x), not 'active'
    expect(l.size).toBe(3);
    expect(l.take('active').allowed).toBe(false);
  });
});
