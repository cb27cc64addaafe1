import { decideAfterAttempt, isDelivered, parseRetryAfter } from './retry-policy';

const now = new Date('2026-11-22T10:15:00.000Z');
const base = { now, schedule: [1000, 60000], jitter: 0, maxRetryAfterMs: 3600000 };

describe('retry policy', () => {
  it('only 2xx is delivered; 3xx, 4xx and 5xx and no answer are retried', () => {
    expect([200, 201, 204, 299].every(isDelivered)).toBe(true);
    expect([null, 100, 301, 307, 400, 404, 410, 429, 500, 503].some(isDelivered)).toBe(false);
    for (const statusCode of [null, 307, 400, 404, 410, 429, 500]) {
      expect(decideAfterAttempt({ ...base, attempt: 1, statusCode }).outcome).toBe('retry');
    }
  });

  it('waits the scheduled delay for the attempt, then gives up as dead', () => {
    expect(decideAfterAttempt({ ...base, attempt: 1, statusCode: 500 }).nextAttemptAt).toEqual(new Date(now.getTime() + 1000));
    expect(decideAfterAttempt({ ...base, attempt: 2, statusCode: 500 }).nextAttemptAt).toEqual(new Date(now.getTime() + 60000));
    expect(decideAfterAttempt({ ...base, attempt: 3, statusCode: 500 })).toEqual({ outcome: 'dead' });
    expect(decideAfterAttempt({ ...base, attempt: 3, statusCode: 200 })).toEqual({ outcome: 'delivered' });
  });

  it('applies jitter symmetrically', () => {
    const at = (r: number) => decideAfterAttempt({ ...base, jitter: 0.2, attempt: 1, statusCode: 500, random: () => r }).nextAttemptAt!.getTime() - now.getTime();
    expect(at(0)).toBe(800);
    expect(at(0.5)).toBe(1000);
    expect(at(0.999999)).toBe(1200);
  });

  it('honours a longer Retry-After, ignores a shorter one, and caps it', () => {
    const delay = (retryAfterMs: number) => decideAfterAttempt({ ...base, attempt: 1, statusCode: 429, retryAfterMs }).nextAttemptAt!.getTime() - now.getTime();
    expect(delay(5000)).toBe(5000);
    expect(delay(10)).toBe(1000);
    expect(delay(10 * 3600000)).toBe(3600000);
    // Retry-After never revives an exhausted schedule.
    expect(decideAfterAttempt({ ...base, attempt: 3, statusCode: 503, retryAfterMs: 5000 }).outcome).toBe('dead');
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:16:00 GMT', now)).toBe(60000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
