/**
 * What a readiness probe should know beyond the database: parts that join in the background
 * (Kafka consumers) report their state here, so HTTP can serve writes before they have joined;
 * dependencies that can fail (the Kafka cluster) register a check that makes the probe 503.
 */
export class Readiness {
  private readonly parts = new Map<string, () => string>();
  private readonly checks = new Map<string, () => Promise<string | undefined>>();

  /** `state` is read at each probe. */
  report(part: string, state: () => string): void {
    this.parts.set(part, state);
  }

  /** `probe` answers undefined when the dependency is up, else why not. */
  check(part: string, probe: () => Promise<string | undefined>): void {
    this.checks.set(part, probe);
  }

  snapshot(): Record<string, string> {
    return Object.fromEntries([...this.parts].map(([part, state]) => [part, state()]));
  }

  /** Each checked dependency: 'up' or 'unreachable' (reasons stay in the log: the probe is open). */
  async dependencies(): Promise<{ up: boolean; states: Record<string, 'up' | 'unreachable'> }> {
    const results = await Promise.all([...this.checks].map(async ([part, probe]) => [part, (await probe().catch(() => 'failed')) === undefined ? 'up' : 'unreachable'] as const));
    return { up: results.every(([, s]) => s === 'up'), states: Object.fromEntries(results) };
  }
}
