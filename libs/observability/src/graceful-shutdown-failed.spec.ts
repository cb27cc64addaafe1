import { runShutdown, type ShutdownPlan } from './graceful-shutdown';

// A README audit: with the embedded PostgreSQL killed under it, the API logged "stopped cleanly"
// and then exited 1; an operator reading the last line took the stop for an ordinary one.
describe('runShutdown for a cause that is a failure', () => {
  it('does not call the stop clean, and exits 1', async () => {
    const said: string[] = [];
    let code: number | undefined;
    const plan: ShutdownPlan = { drainMs: 200, steps: [async () => undefined], failed: () => true, log: (m) => said.push(m), warn: (m) => said.push(m), exit: (c) => (code = c) };
    await runShutdown(plan, 'embedded PostgreSQL gone');
    expect(said[said.length - 1]).toMatch(/^stopped in \d+ ms \(exit 1\)$/);
    expect(code).toBe(1);
  });
});
