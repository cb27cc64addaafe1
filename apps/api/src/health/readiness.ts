/**
 * What a readiness probe should know beyond the database: parts that join in the background
 * (Kafka consumers) report here, so HTTP can serve writes before they have joined.
 */
export class Readiness {
  private readonly parts = new Map<string, () => string>();

  /** `state` is read at each probe. */
  report(part: string, state: () => string): void {
    this.parts.set(part, state);
  }

  snapshot(): Record<string, string> {
    return Object.fromEntries([...this.parts].map(([part, state]) => [part, state()]));
  }
}
