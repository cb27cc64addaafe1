import { UnownedCashIns } from './unowned-cash-ins';

describe('Pix to keys nobody here owns (UnownedCashIns)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const setUp = () => {
    const warn: string[] = [];
    const debug: string[] = [];
    let counted = 0;
    const unowned = new UnownedCashIns({ warn: (m) => warn.push(m), debug: (m) => debug.push(m) }, 60_000);
    unowned.observe = () => counted++;
    return { unowned, warn, debug, counted: () => counted };
  };

  it('counts every one, warns about the first at once and sums the rest up once per interval', () => {
    const { unowned, warn, debug, counted } = setUp();
    for (let i = 0; i < 1000; i++) unowned.record(`E${i}`, 'k@example.com');
    expect(counted()).toBe(1000);
    expect(debug).toHaveLength(1000);
    expect(warn).toEqual([expect.stringContaining('Pix E0 to key k@example.com, which no receiver here owns')]);
    jest.advanceTimersByTime(60_000);
    expect(warn).toHaveLength(2);
    expect(warn[1]).toMatch(/^999 more Pix to keys no receiver here owns in the last 60 s: recorded, not settled \(e\.g\. Pix E1 to key k@example\.com; Pix E2 to key k@example\.com\)$/);
    // A quiet interval ends the period: nothing more is logged, and the next one is logged at once.
    jest.advanceTimersByTime(120_000);
    expect(warn).toHaveLength(2);
    unowned.record('E9999', 'k@example.com');
    expect(warn).toHaveLength(3);
    expect(warn[2]).toContain('Pix E9999');
    unowned.close();
  });

  it('logs what is pending when closed, and leaves no timer behind', () => {
    const { unowned, warn } = setUp();
    unowned.record('E1', 'k');
    unowned.record('E2', 'k');
    unowned.close();
    expect(warn).toHaveLength(2);
    expect(warn[1]).toMatch(/^1 more Pix/);
    expect(jest.getTimerCount()).toBe(0);
  });
});
