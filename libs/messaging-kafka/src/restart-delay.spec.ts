import { restartDelay } from './batch-server';

describe('restarting a consumer kafkajs gave up on', () => {
  it('waits longer after each crash in a row, up to 30 s (a batch that cannot be decoded looped ~100 times a second)', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map(restartDelay)).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});
