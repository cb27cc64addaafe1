import { withCorrelationId } from '@pix/observability';

/** How often, at most, a summary of Pix to keys nobody here owns is logged. */
export const UNOWNED_SUMMARY_INTERVAL_MS = 60_000;
const EXAMPLES = 2;

/**
 * Pix to keys no receiver here owns. Normal when deployments share a broker with separate groups
 * (staging and production, as the README recommends): each sees every Pix of the other, and one
 * warning per Pix flooded the log (27,806 lines in 13 s when a new group read the topic). So:
 * each is counted (`observe`, the API's metric), the first is logged at once, the rest are summed
 * up in one line per interval (how many, a couple of examples); each Pix's own line is debug.
 */
export class UnownedCashIns {
  /** Called once per such Pix (the metrics counter). */
  observe: () => void = () => undefined;
  private pending = 0;
  private examples: string[] = [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly logger: { warn(message: string): void; debug(message: string): void },
    private readonly intervalMs = UNOWNED_SUMMARY_INTERVAL_MS,
  ) {}

  record(endToEndId: string, chave: string, correlationId?: string): void {
    this.observe();
    const what = `Pix ${endToEndId} to key ${chave}`;
    withCorrelationId(correlationId, () => this.logger.debug(`${what}, which no receiver here owns: recorded, not settled`));
    if (this.timer) {
      this.pending++;
      if (this.examples.length < EXAMPLES) this.examples.push(what);
      return;
    }
    withCorrelationId(correlationId, () =>
      this.logger.warn(`${what}, which no receiver here owns: recorded, not settled (more such Pix are counted in pix_cash_ins_unowned_total and summed up here at most every ${this.intervalMs / 1000} s)`),
    );
    this.timer = setInterval(() => this.summarise(), this.intervalMs).unref();
  }

  /** Logs what is pending; a quiet interval ends the period, so the next such Pix is logged at once. */
  summarise(): void {
    if (this.pending === 0) return this.close();
    this.logger.warn(
      `${this.pending} more Pix to keys no receiver here owns in the last ${this.intervalMs / 1000} s: recorded, not settled (e.g. ${this.examples.join('; ')})`,
    );
    this.pending = 0;
    this.examples = [];
  }

  /** At shutdown: what is pending is logged, and no timer is left behind. */
  close(): void {
    if (this.pending > 0) this.summarise();
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
