import { DEFAULT_DELIVERY_CONFIG, DEFAULT_SCHEDULE, parseDuration, parseSchedule, resolveDeliveryConfig } from './config';

describe('delivery configuration', () => {
  it('parses schedules written with units', () => {
    expect(parseSchedule('5s,30s,2m,1h,24h')).toEqual([5000, 30000, 120000, 3600000, 86400000]);
    expect(parseSchedule(' 250ms , 1.5s, 2d ,100')).toEqual([250, 1500, 172800000, 100]);
    expect(parseDuration('10m')).toBe(600000);
  });

  it('rejects malformed schedules with a clear message', () => {
    expect(() => parseSchedule('5s,,1m')).toThrow(/invalid schedule/);
    expect(() => parseSchedule('')).toThrow(/invalid schedule/);
    expect(() => parseSchedule('5 sec')).toThrow(/invalid duration "5 sec"/);
    expect(() => parseSchedule('-5s')).toThrow(/invalid duration/);
  });

  it('defaults: 15 s time-out, 64 worker slots, lanes of up to 8 per key, batches of 50, ±20 %, 11 attempts spanning more than 24 h', () => {
    expect(DEFAULT_DELIVERY_CONFIG).toMatchObject({ timeoutMs: 15000, concurrency: 64, maxInFlightPerKey: 8, maxBatch: 50, slowResponseMs: 1000, jitter: 0.2 });
    expect(DEFAULT_SCHEDULE.length + 1).toBe(11);
    expect(DEFAULT_SCHEDULE[0]).toBe(5000);
    const totalMs = DEFAULT_SCHEDULE.reduce((a, b) => a + b, 0);
    expect(totalMs).toBeGreaterThan(24 * 3600 * 1000);
    expect(DEFAULT_SCHEDULE.at(-1)).toBe(24 * 3600 * 1000);
  });

  it('fills defaults, ignoring undefined overrides', () => {
    const c = resolveDeliveryConfig({ timeoutMs: 30000, leaseMarginMs: undefined });
    expect(c.timeoutMs).toBe(30000);
    expect(c.leaseMarginMs).toBe(30000);
    expect(c.schedule).toEqual([...DEFAULT_SCHEDULE]);
  });

  it('reports every bad value at once', () => {
    expect(() => resolveDeliveryConfig({ timeoutMs: 0, jitter: 1.5, concurrency: 2.5, schedule: [5, -1], tls: { cert: 'x' } })).toThrow(
      /timeoutMs must be a positive integer.*concurrency must be a positive integer.*jitter must be in \[0, 1\).*schedule must be.*tls.cert and tls.key/,
    );
  });
});
