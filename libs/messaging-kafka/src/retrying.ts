export interface RetryDeps {
  /** `log`: the line that says a wait is over. */
  logger: { error(m: string): void; log?(m: string): void };
  /** Stop retrying (shutdown): the batch is left for redelivery. */
  stopped(): boolean;
  /** Keeps the consumer's group membership while a batch is retried (kafkajs's `heartbeat`). */
  heartbeat(): Promise<void>;
}

/** Thrown instead of retrying once the consumer is stopping: the offsets stay uncommitted. */
export class StoppedWhileRetrying extends Error {}

/** Thrown after `maxAttempts` failures, when the caller set a limit. */
export class GaveUp extends Error {
  constructor(
    what: string,
    readonly lastError: unknown,
  ) {
    super(`${what}: gave up (${describe(lastError)})`);
  }
}

/**
 * Runs `work` until it succeeds, backing off (capped at 30 s); gives up only on shutdown, or
 * after `maxAttempts` failures when given (GaveUp). The
 * wait is cut in short slices so a shutdown is not held up, with heartbeats meanwhile so the
 * group does not hand the partition to another member (kafkajs sends one at most once per
 * heartbeatInterval; a failed one, broker down, is for the next attempt to notice).
 */
export async function retrying(work: () => Promise<unknown>, what: string, deps: RetryDeps, maxAttempts = Infinity): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await work();
      return;
    } catch (error) {
      if (deps.stopped()) throw new StoppedWhileRetrying(`${what}: stopped while retrying, left for redelivery`);
      if (attempt >= maxAttempts) throw new GaveUp(what, error);
      const waitMs = Math.min(30_000, 100 * 2 ** Math.min(attempt, 9));
      // The stack once per failing batch, not at every retry (a database outage retries for its length).
      const stack = attempt === 1 && error instanceof Error && error.stack ? `\n${error.stack}` : '';
      deps.logger.error(`${what} failed (attempt ${attempt}); retrying in ${waitMs} ms: ${describe(error)}${stack}`);
      for (const until = Date.now() + waitMs; Date.now() < until && !deps.stopped(); ) {
        await new Promise((r) => setTimeout(r, 100));
        await deps.heartbeat().catch(() => undefined);
      }
    }
  }
}

/** An error's message; also of a `{ status, message }` that Nest's default RPC filter makes of one. */
export function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}

/** Whether kafkajs failed because the broker refused a record (batch) as too large; kafkajs does not retry that. */
export function isTooLarge(error: unknown): boolean {
  for (let e = error as { type?: string; message?: string; cause?: unknown; errors?: unknown[] } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.type === 'MESSAGE_TOO_LARGE' || e.type === 'RECORD_LIST_TOO_LARGE' || /larger than the max message size/.test(e.message ?? '')) return true;
    if (Array.isArray(e.errors) && e.errors.some(isTooLarge)) return true;
  }
  return false;
}
