/**
 * Token requests checked at once per address, and how many more may wait their turn. Each check
 * costs a scrypt hash (unknown clients a decoy one) on node's four-thread pool: ten wrong-secret
 * requests kept in flight from one address, inside its rate limit, made everyone's token take ten
 * times longer. Two at a time per address leaves the other threads to other addresses; the rest
 * wait in arrival order (a fleet starting behind one NAT still gets its tokens), and past the
 * queue the answer is 429.
 */
export class ChecksPerAddress {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(
    private readonly atOnce = 2,
    private readonly queued = 32,
  ) {}

  /** Resolves with a release function when it is this request's turn; false when the queue is full. */
  async enter(address: string): Promise<(() => void) | false> {
    const running = this.running.get(address) ?? 0;
    if (running < this.atOnce) this.running.set(address, running + 1);
    else {
      const queue = this.waiting.get(address) ?? [];
      if (queue.length >= this.queued) return false;
      this.waiting.set(address, queue);
      // The slot is handed over by the release below: `running` stays counted.
      await new Promise<void>((resolve) => queue.push(resolve));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const queue = this.waiting.get(address);
      const next = queue?.shift();
      if (queue && queue.length === 0) this.waiting.delete(address);
      if (next) return next();
      const left = this.running.get(address)! - 1;
      if (left > 0) this.running.set(address, left);
      else this.running.delete(address);
    };
  }
}
