/**
 * What a readiness probe should know beyond the database. Parts that join in the background
 * (Kafka consumer groups) report their state, so HTTP can serve writes before they have joined;
 * dependencies that can fail register a check. A failed `required` check (an asynchronous read
 * model too far behind) makes the probe 503; any other failure (the Kafka cluster away, a group
 * stuck joining) leaves it 200 with status `degraded`: they stop settlement, a background
 * consumer, not the HTTP requests a load balancer sends here (ADR 16).
 */
export class Readiness {
  private readonly parts = new Map<string, { state: () => string; healthy: (state: string) => boolean; dependency?: string }>();
  private readonly checks = new Map<string, { probe: () => Promise<string | undefined>; failedAs: string; required: boolean; dependency?: string }>();

  /** `state` is read at each probe; `healthy` says whether that state is a degradation. */
  report(part: string, state: () => string, options: { healthy?: (state: string) => boolean; dependency?: string } = {}): void {
    this.parts.set(part, { state, healthy: options.healthy ?? (() => true), dependency: options.dependency });
  }

  /** `probe` answers undefined when the dependency is up, else why not; the probe then shows `failedAs`. */
  check(part: string, probe: () => Promise<string | undefined>, options: { failedAs?: string; required?: boolean; dependency?: string } = {}): void {
    this.checks.set(part, { probe, failedAs: options.failedAs ?? 'unreachable', required: options.required ?? true, dependency: options.dependency });
  }

  /**
   * Every part's state and checked dependency's word ('up' or its failure: no reasons, the probe
   * is open to anyone); `up`: every required check passed; `degraded`: something else did not.
   */
  async read(): Promise<{ up: boolean; degraded: boolean; states: Record<string, string> }> {
    const parts = [...this.parts].map(([name, p]) => {
      const state = p.state();
      return { name, state, healthy: p.healthy(state) };
    });
    const checks = await Promise.all([...this.checks].map(async ([name, c]) => ({ name, ...(await this.run(c)), required: c.required })));
    return {
      up: checks.every((c) => c.ok || !c.required),
      degraded: parts.some((p) => !p.healthy) || checks.some((c) => !c.ok && !c.required),
      states: Object.fromEntries([...parts, ...checks].map((s) => [s.name, s.state])),
    };
  }

  /** Whether every check and part of `dependency` is up now (pix_dependency_up). */
  async dependencyUp(dependency: string): Promise<boolean> {
    const parts = [...this.parts.values()].filter((p) => p.dependency === dependency);
    const checks = [...this.checks.values()].filter((c) => c.dependency === dependency);
    return parts.every((p) => p.healthy(p.state())) && (await Promise.all(checks.map((c) => this.run(c)))).every((c) => c.ok);
  }

  private async run(check: { probe: () => Promise<string | undefined>; failedAs: string }): Promise<{ ok: boolean; state: string }> {
    const ok = (await check.probe().catch(() => 'failed')) === undefined;
    return { ok, state: ok ? 'up' : check.failedAs };
  }
}

/**
 * Kafka as the API's readiness sees it: the cluster and each consumer group are reported and
 * make the answer `degraded`, never 503 (settlement waits for them, HTTP does not); a group
 * joining for longer than STUCK_JOINING_MS shows `stuck joining`. pix_dependency_up{dependency="kafka"} reads the same.
 */
export function reportKafka(readiness: Readiness, cluster: () => Promise<string | undefined>, groups: { groupId: string; reportedState(): string }[]): void {
  readiness.check('kafka', cluster, { required: false, dependency: 'kafka' });
  for (const g of groups) readiness.report(`kafka ${g.groupId}`, () => g.reportedState(), { healthy: (state) => state !== 'stuck joining', dependency: 'kafka' });
}
