import type { WebhookRegistrations } from './types';

/** How long a read that found a key's webhook serves the deliveries that start after it began. */
export const LOOKUP_REUSE_MS = 100;

interface Read {
  startedAt: number;
  answer: Promise<string | undefined>;
  /** Unknown while the read is under way. */
  found?: boolean;
}

/**
 * The worker's reads of keys' webhooks. A delivery starting while a read of its key is under way
 * joins it; one starting within LOOKUP_REUSE_MS of the start of a read that found the webhook uses
 * its answer. So a DELETE stops every POST that starts more than that after the DELETE returned
 * (a claim's deliveries have always shared one read), and a key with a steady stream of single-Pix
 * deliveries costs at most ten reads a second instead of one read per POST or per result group.
 * A read that found nothing is never reused: a new PUT counts at once.
 */
export class WebhookLookups {
  private readonly reads = new Map<string, Read>();

  constructor(
    private readonly registrations: WebhookRegistrations,
    private readonly reuseMs = LOOKUP_REUSE_MS,
  ) {}

  urlFor(chave: string): Promise<string | undefined> {
    const now = performance.now();
    const read = this.reads.get(chave);
    if (read && (read.found === undefined || (read.found && now - read.startedAt < this.reuseMs))) return read.answer;
    if (this.reads.size > 1000) this.forgetOld(now);
    const answer = this.registrations.urlFor(chave);
    const entry: Read = { startedAt: now, answer };
    this.reads.set(chave, entry);
    const forget = () => void (this.reads.get(chave) === entry && this.reads.delete(chave));
    answer.then((url) => ((entry.found = url !== undefined) ? undefined : forget()), forget);
    return answer;
  }

  /** When the key's webhook was last removed before its current registration, as the latest read found (where the app tells). */
  removedBefore(chave: string): string | undefined {
    return this.registrations.removedBefore?.(chave);
  }

  private forgetOld(now: number): void {
    for (const [chave, read] of this.reads) if (read.found !== undefined && now - read.startedAt >= this.reuseMs) this.reads.delete(chave);
  }
}
