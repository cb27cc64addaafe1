import { positionsIn } from './positions';

describe('positionsIn', () => {
  it('gives each key its first position, as indexOf does, and reads a list once', () => {
    let reads = 0;
    const list = ['a', 'b', 'a', 'c'];
    const key = (s: string) => ((reads += 1), s);
    expect([...positionsIn(list, key)].sort()).toEqual([['a', 0], ['b', 1], ['c', 3]]);
    expect(positionsIn(list, key).get('c')).toBe(3);
    expect(positionsIn(list, key).get('z')).toBeUndefined();
    expect(reads).toBe(list.length);
  });
});
