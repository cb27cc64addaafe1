// validateBody (fast path, full path for what it does not accept) against the reference full
// path, on valid and near-valid bodies of every DTO validateBody is given and of each nested DTO:
// the same `value` (member order, -0 included), the same `violacoes` in the same order. A failure
// prints the seed and the first failing input; PROPERTY_SEED=<seed> replays it.
import fc from 'fast-check';
import { NESTED_BODIES, VALID_BODIES } from './body-arbitraries.fixture';
import { isJsonLike, mutate, mutations } from './body-mutations.fixture';
import { planFor } from './dto-plan';
import { assertProperty } from './property.fixture';
import { difference } from './result-difference.fixture';
import { validateFast } from './fast-validation';
import { validateBody, validateBodyFully } from './validate-body';

const ROOTS = fc.constantFrom('cobv', 'loteCobV.cobsV[0]');

interface Tally {
  cases: number;
  valid: number;
  fast: number;
}

function sameAsFullPath(dto: new () => object, body: Record<string, unknown>, root: string, tally: Tally): void {
  const expected = validateBodyFully(dto, body, root);
  const actual = validateBody(dto, body, root);
  const diff = difference(actual, expected);
  if (diff) throw new Error(`validateBody differs from the full path at ${diff}`);
  const fast = validateFast(dto, body);
  tally.cases++;
  if (expected.value !== undefined) tally.valid++;
  if (fast !== undefined) {
    tally.fast++;
    if (expected.value === undefined) throw new Error(`fast path accepted what the full path refuses: ${JSON.stringify(expected.violacoes)}`);
    const d = difference(fast, expected.value);
    if (d) throw new Error(`fast path value differs at ${d}`);
  } else if (expected.value !== undefined && isJsonLike(body)) {
    // Not a correctness matter (the full path decides), but valid JSON must stay on the fast path.
    throw new Error('fast path gave up on a valid JSON body');
  }
}

const CASES: [string, new () => object, fc.Arbitrary<Record<string, unknown>>, number][] = [
  ...VALID_BODIES.map(([name, dto, arb]) => [name, dto, arb, 2500] as [string, new () => object, fc.Arbitrary<Record<string, unknown>>, number]),
  ...NESTED_BODIES.map(([name, dto, arb]) => [name, dto, arb, 600] as [string, new () => object, fc.Arbitrary<Record<string, unknown>>, number]),
];

describe.each(CASES)('validateBody(%s) is the full path, faster', (_name, dto, valid, runs) => {
  it('has a fast plan (its decorators are all understood)', () => {
    expect(planFor(dto)).not.toBeNull();
  });

  it('accepts valid bodies on the fast path, with the full path\'s value', () => {
    const tally: Tally = { cases: 0, valid: 0, fast: 0 };
    assertProperty(fc.tuple(valid, ROOTS), ([body, root]) => sameAsFullPath(dto, body, root, tally), { numRuns: Math.round(runs / 4) });
    expect(tally).toEqual({ cases: tally.cases, valid: tally.cases, fast: tally.cases });
  });

  it('gives the full path\'s result for near-valid bodies', () => {
    const tally: Tally = { cases: 0, valid: 0, fast: 0 };
    assertProperty(fc.tuple(valid, mutations, ROOTS), ([body, list, root]) => sameAsFullPath(dto, mutate(body, list), root, tally), { numRuns: runs });
    // Some mutations keep a body valid (reordered members, a numeric string for a modality...);
    // the fast path gives up only on the non-JSON ones (a Date read as {}, a sparse array...).
    expect(tally.fast).toBeGreaterThan(0);
    expect(tally.fast).toBeLessThanOrEqual(tally.valid);
    expect(tally.valid).toBeLessThan(tally.cases);
  });
});
