import { LANE_IDLE_MS, Lanes, MAX_LANES } from './lanes';

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

  it('a 413 halves the key batch size while its lane lives; the claim gets per-key limits only for keys that differ', () => {
    const lanes = new Lanes({ maxInFlight: 1, maxBatch: 50, slowMs: 1000 });
    expect(lanes.initial).toBe(1);
    lanes.tooLarge('k', 50);
    lanes.tooLarge('k', 25);
    expect(lanes.batchOf('k')).toBe(12);
    expect(lanes.limits()).toEqual({ keys: ['k'], inFlight: [1], batch: [12] });
  });
});

describe('adaptive lanes: memory per key (hostile receiver set audit)', () => {
  const fast = { statusCode: 200, latencyMs: 20 };
  const settings = { maxInFlight: 8, maxBatch: 50, slowMs: 1000 };

  it('a lane unused for LANE_IDLE_MS is forgotten: every claim carried every key ever delivered to', () => {
    let now = 0;
    const lanes = new Lanes(settings, () => now);
    for (let i = 0; i < 1000; i++) lanes.observe(`k${i}`, fast);
    lanes.tooLarge('k0', 50);
    expect(lanes.limits().keys).toHaveLength(1000);
    now += LANE_IDLE_MS - 1;
    lanes.observe('k999', fast);
    expect(lanes.limits().keys).toHaveLength(1000);
    now += 2;
    expect(lanes.limits().keys).toEqual(['k999']);
    expect(lanes.batchOf('k0')).toBe(50); // starts afresh: one 413 teaches it again
  });

  it('reading a key’s limits does not make it a lane', () => {
    const lanes = new Lanes(settings);
    expect(lanes.limitOf('k')).toBe(2);
    expect(lanes.batchOf('k')).toBe(50);
    expect(lanes.limits().keys).toEqual([]);
  });

  it('at most MAX_LANES are kept: the least recently used goes first', () => {
    const lanes = new Lanes(settings);
    for (let i = 0; i < MAX_LANES + 5; i++) lanes.observe(`k${i}`, fast);
    lanes.observe('k3', fast); // gone already: comes back as the newest
    const { keys } = lanes.limits();
    expect(keys).toHaveLength(MAX_LANES);
    expect(keys[0]).toBe('k6');
    expect(keys[keys.length - 1]).toBe('k3');
  });
});
