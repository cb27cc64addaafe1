/**
 * Each key's position in a list that never changes (the first, as `indexOf` gives), made once per
 * list and kept while the list lives. A batch names up to 1,000 requests, and finding each by
 * scanning made a round of them a million comparisons wherever a round is folded (ADR 6). A
 * list is always read by the same key (the map is kept per list, not per key).
 */
export function positionsIn<T>(list: readonly T[], key: (item: T) => string): ReadonlyMap<string, number> {
  let positions = known.get(list);
  if (!positions) {
    positions = new Map();
    for (let i = list.length - 1; i >= 0; i--) positions.set(key(list[i] as T), i);
    known.set(list, positions);
  }
  return positions;
}

const known = new WeakMap<readonly unknown[], Map<string, number>>();
