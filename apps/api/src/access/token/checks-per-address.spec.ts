import { ChecksPerAddress } from './checks-per-address';

const settled = () => new Promise((r) => setImmediate(r));

describe('token checks per address', () => {
  it('runs two at a time per address, queues the next in order, refuses past the queue; other addresses unaffected', async () => {
    const checks = new ChecksPerAddress(2, 2, 10);
    const a = await checks.enter('a');
    const b = await checks.enter('a');
    const order: string[] = [];
    const c = checks.enter('a').then((r) => (order.push('c'), r));
    const d = checks.enter('a').then((r) => (order.push('d'), r));
    expect(await checks.enter('a')).toBe(false); // two running, two waiting
    expect(await checks.enter('elsewhere')).toEqual(expect.any(Function));
    await settled();
    expect(order).toEqual([]);
    (a as () => void)();
    (a as () => void)(); // a second release changes nothing
    await settled();
    expect(order).toEqual(['c']);
    (b as () => void)();
    await settled();
    expect(order).toEqual(['c', 'd']);
    ((await c) as () => void)();
    ((await d) as () => void)();
    // All released: two run at once again, nothing waits.
    expect(await checks.enter('a')).toEqual(expect.any(Function));
    expect(await checks.enter('a')).toEqual(expect.any(Function));
  });

  it('runs two in all, and gives freed slots to the waiting addresses in turn: one request is not stuck behind a flood', async () => {
    const checks = new ChecksPerAddress(2, 32, 2);
    const release = async (r: Promise<(() => void) | false>) => ((await r) as () => void)();
    const started: string[] = [];
    const enter = (address: string) => checks.enter(address).then((r) => (started.push(address), r));
    // Two flooding addresses fill both slots and queue five more each; then one legitimate request.
    const running = [enter('x'), enter('y')];
    const queued = [...Array.from({ length: 5 }, () => enter('x')), ...Array.from({ length: 5 }, () => enter('y'))];
    const legit = enter('legit');
    await settled();
    expect(started).toEqual(['x', 'y']);
    await release(running[0]);
    await release(running[1]);
    await settled();
    // x and y each had a turn; legit is next, not after the ten queued before it.
    expect(started.slice(2)).toEqual(['x', 'y']);
    await release(queued[0]);
    await settled();
    expect(started[4]).toBe('legit');
    for (const r of [...queued.slice(1), legit]) void release(r);
  });
});
