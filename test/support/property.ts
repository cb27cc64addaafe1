import fc from 'fast-check';

/**
 * fc.assert for async properties, with what a failure must tell: the seed and path to replay it
 * (PROPERTY_SEED=<seed> re-runs the same inputs) and the FIRST failing input as generated, before
 * shrinking. Shrinking replays inputs against a live server whose state earlier failures may have
 * changed, so the shrunk counterexample alone can blame the wrong input.
 */
export async function assertProperty<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, params: { numRuns: number; timeout?: number }): Promise<void> {
  const seed = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : (Date.now() ^ (Math.random() * 0x100000000)) | 0;
  let first: { value: T; error: unknown } | undefined;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    try {
      await predicate(value);
    } catch (error) {
      first ??= { value, error };
      throw error;
    }
  });
  const details = await fc.check(property, { ...params, seed });
  if (!details.failed) return;
  const show = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'string' && x.length > 300 ? `${x.slice(0, 300)}…(${x.length} chars)` : x))?.slice(0, 2000);
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
