import { Lanes } from './lanes';

describe('adaptive lanes (AIMD per key)', () => {
  const fast = { statusCode: 200, latencyMs: 20 };

  it('start at 2, grow by one per round of fast answers up to the ceiling, halve on 429, a failure or a slow answer, never below 1', () => {
    const lanes = new Lanes({ maxInFlight: 6, maxBatch: 50, slowMs: 1000 });
    expect(lanes.limitOf('k')).toBe(2);
    lanes.observe('k', fast);
    expect(lanes.limitOf('k')).toBe(2); // +1/2
    lanes.observe('k', fast);
    expect(lanes.limitOf('k')).toBe(3);
    for (let i = 0; i < 50; i++) lanes.observe('k', fast);
    expect(lanes.limitOf('k')).toBe(6);
    lanes.observe('k', { statusCode: 429, latencyMs: 5 });
    expect(lanes.limitOf('k')).toBe(3);
    lanes.observe('k', { statusCode: 200, latencyMs: 1500 });
    expect(lanes.limitOf('k')).toBe(1);
    lanes.observe('k', { statusCode: null, latencyMs: 15000 });
    lanes.observe('k', { statusCode: 500, latencyMs: 3 });
    expect(lanes.limitOf('k')).toBe(1);
    expect(lanes.limitOf('other')).toBe(2); // keys do not share a lane
  });

  it('a 413 halves the key batch size for good; the claim gets per-key limits only for keys that differ', () => {
    const lanes = new Lanes({ maxInFlight: 1, maxBatch: 50, slowMs: 1000 });
    expect(lanes.initial).toBe(1);
    lanes.tooLarge('k', 50);
    lanes.tooLarge('k', 25);
    expect(lanes.batchOf('k')).toBe(12);
    expect(lanes.limits()).toEqual({ keys: ['k'], inFlight: [1], batch: [12] });
  });
});
