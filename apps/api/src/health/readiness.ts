/**
 * What a readiness probe should know beyond the database: parts that join in the background
 * (Kafka consumers) report their state here, so HTTP can serve writes before they have joined;
 * dependencies that can fail (the Kafka cluster) register a check that makes the probe 503.
 */
export class Readiness {
  private readonly parts = new Map<string, () => string>();
  private readonly checks = new Map<string, { probe: () => Promise<string | undefined>; failedAs: string }>();

  /** `state` is read at each probe. */
  report(part: string, state: () => string): void {
    this.parts.set(part, state);
  }

  /** `probe` answers undefined when the dependency is up, else why not; the probe then shows `failedAs`. */
  check(part: string, probe: () => Promise<string | undefined>, failedAs = 'unreachable'): void {
    this.checks.set(part, { probe, failedAs });
  }

  snapshot(): Record<string, string> {
    return Object.fromEntries([...this.parts].map(([part, state]) => [part, state()]));
  }

  /** Each checked dependency: 'up' or its failure word (no reasons: the probe is open to anyone). */
  async dependencies(): Promise<{ up: boolean; states: Record<string, string> }> {
    const results = await Promise.all([...this.checks].map(async ([part, { probe, failedAs }]) => [part, (await probe().catch(() => 'failed')) === undefined ? 'up' : failedAs] as const));
    return { up: results.every(([, s]) => s === 'up'), states: Object.fromEntries(results) };
  }
}
