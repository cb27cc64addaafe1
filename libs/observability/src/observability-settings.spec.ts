import { loadObservabilitySettings } from './observability-settings';

describe('SHUTDOWN_DELAY', () => {
  const load = (env: Record<string, string>, local = false) => {
    const problems: string[] = [];
    return { delay: loadObservabilitySettings(env, local, problems).shutdownDelayMs, problems };
  };

  it('defaults to 5 s in production (a load balancer sees readiness fail first) and 0 in local mode (Ctrl-C stays instant)', () => {
    expect(load({})).toEqual({ delay: 5000, problems: [] });
    expect(load({}, true)).toEqual({ delay: 0, problems: [] });
  });

  it('is a duration like the other duration settings; 0 turns it off', () => {
    expect(['0', '0s', '250ms', '2s', '1.5s', '1m', '750'].map((v) => load({ SHUTDOWN_DELAY: v }).delay)).toEqual([0, 0, 250, 2000, 1500, 60_000, 750]);
  });

  it('names itself when invalid or past 10 minutes', () => {
    for (const bad of ['soon', '-1s', '5 seconds', '11m', '1h'])
      expect(load({ SHUTDOWN_DELAY: bad }).problems).toEqual([`SHUTDOWN_DELAY must be a duration from 0 to 10m (e.g. "5s", "500ms"), got "${bad}"`]);
  });
});
