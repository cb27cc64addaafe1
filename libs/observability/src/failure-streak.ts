/**
 * What a loop that retries every round (a claim each second, a batch round) logs while a
 * dependency is down: the first failure, then at most one line per `everyMs` with the count, and
 * one line when it works again. One error line a second for the whole of a database outage
 * (an operator audit, 2026-11-28) buried everything else; readiness and `pix_dependency_up`
 * already say the database is down.
 */
export class FailureStreak {
  private failures = 0;
  private since = 0;
  private lastSaid = 0;

  constructor(
    private readonly what: string,
    private readonly everyMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The line to log for this failure, or undefined when it is only counted. */
  failed(detail: string): string | undefined {
    const at = this.now();
    this.failures += 1;
    if (this.failures === 1) {
      this.since = this.lastSaid = at;
      return `${this.what} failed: ${detail}; retrying (while it keeps failing, said once a minute)`;
    }
    if (at - this.lastSaid < this.everyMs) return undefined;
    this.lastSaid = at;
    return `${this.what} still failing: ${this.failures} failures in ${this.seconds(at)} s, the last: ${detail}`;
  }

  /** The line to log when a round works after failures, or undefined. */
  succeeded(): string | undefined {
    if (this.failures === 0) return undefined;
    const line = `${this.what} resumed after ${this.failures} failures in ${this.seconds(this.now())} s`;
    this.failures = 0;
    return line;
  }

  private seconds(at: number): number {
    return Math.round((at - this.since) / 1000);
  }
}
