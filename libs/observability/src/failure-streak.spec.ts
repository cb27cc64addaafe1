import { FailureStreak } from './failure-streak';

describe('FailureStreak: a retry loop during an outage', () => {
  it('says the first failure, then once a minute with the count, then that it resumed', () => {
    let now = 0;
    const streak = new FailureStreak('webhook delivery: claim', 60_000, () => now);
    const said: (string | undefined)[] = [];
    for (; now < 125_000; now += 1000) said.push(streak.failed('database "pix" is not currently accepting connections'));
    expect(said.filter(Boolean)).toEqual([
      'webhook delivery: claim failed: database "pix" is not currently accepting connections; retrying (while it keeps failing, said once a minute)',
      'webhook delivery: claim still failing: 61 failures in 60 s, the last: database "pix" is not currently accepting connections',
      'webhook delivery: claim still failing: 121 failures in 120 s, the last: database "pix" is not currently accepting connections',
    ]);
    expect(streak.succeeded()).toBe('webhook delivery: claim resumed after 125 failures in 125 s');
    expect(streak.succeeded()).toBeUndefined();
    expect(streak.failed('x')).toMatch(/^webhook delivery: claim failed: x; retrying/);
  });
});
