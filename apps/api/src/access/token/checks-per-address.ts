/**
 * Token requests checked at once, per address and in all, and how many more may wait their turn.
 * Each check costs a scrypt hash (unknown clients a decoy one) on Node's four-thread pool, which
 * new database connections (SCRAM) and DNS also need:
 * - per address, two at a time: ten wrong-secret requests kept in flight from one address, inside
 *   its rate limit, made everyone's token take ten times longer;
 * - in all, two at a time, taken by the addresses in turn: eight addresses at two each filled the
 *   pool, legitimate tokens took 5-10 s and new database connections timed out into 503s (an
 *   audit, 2026-11-27). Two threads stay free, and an address with one request waits for at most
 *   one turn of the others, not for all they queued.
 * Each address's requests wait in arrival order (a fleet starting behind one NAT still gets its
 * tokens); past its queue the answer is 429.
 */
export class ChecksPerAddress {
  private readonly running = new Map<string, number>();
  /** Addresses with requests waiting, in the order they take turns. */
  private readonly waiting = new Map<string, (() => void)[]>();
  private total = 0;

  constructor(
    private readonly atOnce = 2,
    private readonly queued = 32,
    private readonly atOnceOverall = 2,
  ) {}

  /** Resolves with a release function when it is this request's turn; false when the queue is full. */
  async enter(address: string): Promise<(() => void) | false> {
    if (!this.waiting.has(address) && this.canStart(address)) this.start(address);
    else {
      const queue = this.waiting.get(address) ?? [];
      if (queue.length >= this.queued) return false;
      this.waiting.set(address, queue);
      // Started by a release (dispatch below): counted as running before it resumes.
      await new Promise<void>((resolve) => queue.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = this.running.get(address)! - 1;
      if (left > 0) this.running.set(address, left);
      else this.running.delete(address);
      this.dispatch();
    };
  }

  private canStart(address: string): boolean {
    return this.total < this.atOnceOverall && (this.running.get(address) ?? 0) < this.atOnce;
  }

  private start(address: string): void {
    this.total++;
    this.running.set(address, (this.running.get(address) ?? 0) + 1);
  }

  /** Free slots go to waiting addresses in turn; an address served goes to the back of the line. */
  private dispatch(): void {
    for (const [address, queue] of this.waiting) {
      if (this.total >= this.atOnceOverall) return;
      if (!this.canStart(address)) continue;
      const next = queue.shift()!;
      this.waiting.delete(address);
      if (queue.length > 0) this.waiting.set(address, queue);
      this.start(address);
      next();
    }
  }
}
