import { BackgroundCommits, type PartitionOffset } from './background-commits';

/** A commit function the test answers by hand, one call at a time. */
function broker() {
  const calls: { offsets: PartitionOffset[]; resolve(): void; reject(e: Error): void }[] = [];
  const commit = (offsets: PartitionOffset[]) => new Promise<void>((resolve, reject) => calls.push({ offsets, resolve, reject }));
  return { calls, commit };
}
const tick = () => new Promise((r) => setImmediate(r));
const at = (partition: number, offset: string) => ({ topic: 't', partition, offset });

describe('BackgroundCommits', () => {
  it('commits at once, and what arrives meanwhile goes together in the next commit, newest per partition', async () => {
    const b = broker();
    const commits = new BackgroundCommits(b.commit, () => undefined);
    commits.add('t', 0, '9');
    expect(b.calls.map((c) => c.offsets)).toEqual([[at(0, '10')]]);
    commits.add('t', 0, '19');
    commits.add('t', 1, '4');
    commits.add('t', 0, '29');
    expect(b.calls).toHaveLength(1); // one commit in flight at a time
    b.calls[0].resolve();
    await tick();
    expect(b.calls[1].offsets).toEqual([at(0, '30'), at(1, '5')]);
    b.calls[1].resolve();
    await commits.settled();
    expect(b.calls).toHaveLength(2);
  });

  it('a failed commit is not retried at once; its offsets ride the next one unless a newer offset of the partition came', async () => {
    const b = broker();
    const failures: string[] = [];
    const commits = new BackgroundCommits(b.commit, (e) => failures.push(e.message));
    commits.add('t', 0, '9');
    commits.add('t', 1, '4');
    b.calls[0].reject(new Error('rebalance in progress'));
    await tick();
    expect(failures).toEqual(['rebalance in progress']);
    expect(b.calls).toHaveLength(1);
    commits.add('t', 2, '0');
    expect(b.calls[1].offsets).toEqual([at(1, '5'), at(0, '10'), at(2, '1')]);
    commits.add('t', 0, '19'); // newer than the failed 10, which must not come back after it
    b.calls[1].reject(new Error('broker away'));
    await tick();
    commits.add('t', 3, '0');
    expect(b.calls[2].offsets).toEqual([at(0, '20'), at(1, '5'), at(2, '1'), at(3, '1')]);
    b.calls[2].resolve();
    await commits.settled();
  });

  it('after a rebalance, offsets handled before it are never committed (a new owner must not see its offset moved back)', async () => {
    const b = broker();
    const commits = new BackgroundCommits(b.commit, () => undefined);
    commits.add('t', 0, '9');
    commits.add('t', 1, '4'); // waiting behind the commit in flight
    commits.rebalanced();
    b.calls[0].reject(new Error('illegal generation'));
    await tick();
    commits.add('t', 2, '0');
    expect(b.calls[1].offsets).toEqual([at(2, '1')]);
    b.calls[1].resolve();
    await commits.settled();
  });

  it('offsets beyond 2^53 stay exact', async () => {
    const b = broker();
    new BackgroundCommits(b.commit, () => undefined).add('t', 0, '9007199254740993');
    expect(b.calls[0].offsets).toEqual([at(0, '9007199254740994')]);
  });
});

describe('BackgroundCommits with an interval', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('commits at most once per interval, then everything that came meanwhile; closing commits at once', async () => {
    const b = broker();
    const commits = new BackgroundCommits(b.commit, () => undefined, 100);
    commits.add('t', 0, '9'); // the first goes at once
    b.calls[0].resolve();
    await Promise.resolve();
    await Promise.resolve();
    commits.add('t', 0, '19');
    commits.add('t', 1, '4');
    expect(b.calls).toHaveLength(1);
    jest.advanceTimersByTime(99);
    expect(b.calls).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(b.calls[1].offsets).toEqual([at(0, '20'), at(1, '5')]);
    b.calls[1].resolve();
    await Promise.resolve();
    await Promise.resolve();
    commits.add('t', 0, '29');
    expect(b.calls).toHaveLength(2);
    commits.closing(); // a stop must not wait for the interval, nor leave anything uncommitted
    expect(b.calls[2].offsets).toEqual([at(0, '30')]);
    b.calls[2].resolve();
    await Promise.resolve();
    await Promise.resolve();
    commits.add('t', 0, '39'); // the batch that was in hand when the stop began
    expect(b.calls[3].offsets).toEqual([at(0, '40')]);
  });
});
