import { ChecksPerAddress } from './checks-per-address';

const settled = () => new Promise((r) => setImmediate(r));

describe('token checks per address', () => {
  it('runs two at a time per address, queues the next in order, refuses past the queue; other addresses unaffected', async () => {
    const checks = new ChecksPerAddress(2, 2);
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
});
