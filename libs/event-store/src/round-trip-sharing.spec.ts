import { SharedLookups } from './round-trip-sharing';

/** A fetch whose answers the test releases one at a time, logging what happens in order. */
function controlledFetch(log: string[]) {
  const answers: (() => void)[] = [];
  const fetch = (keys: string[]) => {
    log.push(`fetch ${keys.join(',')}`);
    return new Promise<Map<string, string>>((resolve) => answers.push(() => resolve(new Map(keys.map((k) => [k, k.toUpperCase()])))));
  };
  return { fetch, answerNext: () => answers.shift()!() };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('RoundTripSharing (through SharedLookups)', () => {
  it('callers of one turn share one round trip; those arriving while it is out share the next', async () => {
    const log: string[] = [];
    const { fetch, answerNext } = controlledFetch(log);
    const lookups = new SharedLookups(fetch, { maxInFlight: 1 });
    const first = [lookups.get('a'), lookups.get('b'), lookups.get('a')];
    await turn();
    const second = [lookups.get('c'), lookups.get('d')];
    await turn();
    expect(log).toEqual(['fetch a,b']);
    answerNext();
    expect(await Promise.all(first)).toEqual(['A', 'B', 'A']);
    await turn();
    await turn();
    answerNext();
    expect(await Promise.all(second)).toEqual(['C', 'D']);
    expect(log).toEqual(['fetch a,b', 'fetch c,d']);
  });

  it('a lone caller is sent at the end of its own turn, and a failed round trip fails its callers only', async () => {
    const log: string[] = [];
    let fail = true;
    const lookups = new SharedLookups(async (keys) => {
      log.push(`fetch ${keys.join(',')}`);
      if (fail) throw new Error('connection lost');
      return new Map(keys.map((k) => [k, k]));
    }, { maxInFlight: 1 });
    await expect(lookups.get('x')).rejects.toThrow('connection lost');
    fail = false;
    expect(await lookups.get('y')).toBe('y');
    expect(log).toEqual(['fetch x', 'fetch y']);
  });
});
