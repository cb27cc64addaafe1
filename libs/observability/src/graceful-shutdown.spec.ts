import { runShutdown, type ShutdownPlan } from './graceful-shutdown';

const plan = (steps: ShutdownPlan['steps'], drainMs = 200) => {
  const said: string[] = [];
  let code: number | undefined;
  const p: ShutdownPlan = { drainMs, steps, log: (m) => said.push(m), warn: (m) => said.push(`WARN ${m}`), exit: (c) => (code = c) };
  return { p, said, code: () => code };
};
const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('runShutdown', () => {
  it('runs the steps in order and exits 0 when they finish within the drain time', async () => {
    const order: string[] = [];
    const s = plan([async () => void (await wait(20), order.push('http')), async () => void order.push('db')]);
    await runShutdown(s.p, 'SIGTERM');
    expect(order).toEqual(['http', 'db']);
    expect(s.code()).toBe(0);
    expect(s.said[0]).toMatch(/SIGTERM: shutting down \(drain up to 200 ms\)/);
  });

  it('exits 1 when the drain time runs out, without waiting for the rest, but still runs `finally`', async () => {
    let reachedSecond = false;
    let finalRan = false;
    const s = plan([() => wait(1000), async () => void (reachedSecond = true)], 50);
    s.p.finally = async () => void (finalRan = true);
    const started = Date.now();
    await runShutdown(s.p, 'SIGINT');
    expect(Date.now() - started).toBeLessThan(500);
    expect(s.code()).toBe(1);
    expect(reachedSecond).toBe(false);
    expect(finalRan).toBe(true);
    expect(s.said.join('\n')).toMatch(/drain time of 50 ms ran out/);
  });

  it('with a delay: begins it at once, runs no step until it has passed, and does not count it in the drain time', async () => {
    const order: string[] = [];
    const s = plan([async () => void order.push('http')], 50);
    s.p.delayMs = 150;
    s.p.beginDelay = () => void order.push('readiness 503');
    const started = Date.now();
    const done = runShutdown(s.p, 'SIGTERM');
    await wait(100);
    expect(order).toEqual(['readiness 503']);
    await done;
    expect(Date.now() - started).toBeGreaterThanOrEqual(145);
    expect(order).toEqual(['readiness 503', 'http']);
    expect(s.code()).toBe(0);
    expect(s.said[0]).toMatch(/SIGTERM: shutting down: readiness answers 503, requests still served for 150 ms, then drain up to 50 ms/);
    // The last line's figure is the drain; the delay is said beside it, not left out (a README audit).
    expect(s.said[s.said.length - 1]).toMatch(/^stopped cleanly in \d+ ms, after the 150 ms delay$/);
  });

  it('exits 1 when a step fails', async () => {
    const s = plan([() => Promise.reject(new Error('pool gone'))]);
    await runShutdown(s.p, 'SIGTERM');
    expect(s.code()).toBe(1);
    expect(s.said.join('\n')).toMatch(/pool gone/);
  });
});
