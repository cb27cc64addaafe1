// Test-only: fc.assert as test/support/property.ts does it for the e2e suites (which a library's
// spec may not import): a failure tells the seed to replay (PROPERTY_SEED=<seed>) and the FIRST
// failing input as generated, before shrinking.
import fc from 'fast-check';

export function assertProperty<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => void, params: { numRuns: number }): void {
  // eslint-disable-next-line no-restricted-properties -- a test's replay switch, not library configuration
  const replay = process.env.PROPERTY_SEED;
  const seed = replay ? Number(replay) : (Date.now() ^ (Math.random() * 0x100000000)) | 0;
  let first: { value: T; error: unknown } | undefined;
  const property = fc.property(arbitrary, (value) => {
    try {
      predicate(value);
    } catch (error) {
      first ??= { value, error };
      throw error;
    }
  });
  const details = fc.check(property, { ...params, seed });
  if (!details.failed) return;
  const show = (v: unknown) =>
    String(JSON.stringify(v, (_k, x) => (typeof x === 'string' && x.length > 300 ? `${x.slice(0, 300)}…(${x.length} chars)` : typeof x === 'bigint' ? `${x}n` : x))).slice(0, 2000);
  const message = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 2000);
  throw new Error(
    [
      `Property failed after ${details.numRuns} runs: seed ${details.seed}, path "${details.counterexamplePath}" (replay: PROPERTY_SEED=${details.seed})`,
      `first failing input (unshrunk): ${show(first?.value)}`,
      `its failure: ${message(first?.error)}`,
      `shrunk counterexample: ${show(details.counterexample?.[0])}`,
      `its failure: ${message(details.errorInstance)}`,
    ].join('\n'),
  );
}
