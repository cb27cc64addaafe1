/** What a process does to stop: each step in order (stop serving, drain, close stores). */
export interface ShutdownPlan {
  drainMs: number;
  /** Kept serving this long first, after `beginDelay` (readiness 503), so a load balancer stops routing here before the port closes. */
  delayMs?: number;
  beginDelay?: () => void;
  log(message: string): void;
  warn(message: string): void;
  steps: (() => Promise<void>)[];
  /** Runs after the steps, and also when the drain time ran out (e.g. stopping an embedded database). */
  finally?: () => Promise<void>;
  /** The stop has a failure for its cause (a database the process started died): exit 1, and the last line does not say "cleanly". */
  failed?: () => boolean;
  exit(code: number): void;
}

/**
 * SIGTERM or SIGINT (or the returned function, with a reason): the delay first (everything served, readiness 503), then run the steps (the HTTP server first: it stops accepting and lets in-flight
 * requests finish; consumers and workers then finish or release their work) and exit 0. If they
 * take longer than the drain time, or a second signal comes, exit 1 at once: nothing is lost,
 * because every unfinished piece of work is still stored (an unacknowledged message, a leased
 * notification) and another instance takes it up when its lease ends.
 */
export function onShutdownSignals(plan: ShutdownPlan, signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT']): (reason: string) => void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      plan.warn(`${signal} again: exiting now`);
      return plan.exit(1);
    }
    stopping = true;
    void runShutdown(plan, signal);
  };
  for (const s of signals) process.on(s, handler);
  // The same shutdown for a cause of the process's own (a database it started has died); once only.
  return (reason) => {
    if (stopping) return;
    stopping = true;
    void runShutdown(plan, reason);
  };
}

export async function runShutdown(plan: ShutdownPlan, reason: string): Promise<void> {
  const delayMs = plan.delayMs ?? 0;
  if (delayMs > 0) {
    plan.beginDelay?.();
    plan.log(`${reason}: shutting down: readiness answers 503, requests still served for ${delayMs} ms, then drain up to ${plan.drainMs} ms`);
    // Not unref'd: the listening server keeps the process up anyway, and the delay must run out.
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  } else plan.log(`${reason}: shutting down (drain up to ${plan.drainMs} ms)`);
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), plan.drainMs);
    timer.unref();
  });
  const steps = (async () => {
    for (const step of plan.steps) await step();
    return 'done' as const;
  })();
  try {
    const outcome = await Promise.race([steps, expired]);
    clearTimeout(timer);
    if (outcome === 'expired') plan.warn(`drain time of ${plan.drainMs} ms ran out: exiting with work in flight (it stays stored and is taken up again)`);
    await plan.finally?.();
    if (outcome === 'expired') return plan.exit(1);
    const failed = plan.failed?.() ?? false;
    // The drain is what the figure measures; the delay, when there was one, is said beside it.
    const after = delayMs > 0 ? `, after the ${delayMs} ms delay` : '';
    plan.log(`stopped${failed ? '' : ' cleanly'} in ${Date.now() - started} ms${after}${failed ? ' (exit 1)' : ''}`);
    plan.exit(failed ? 1 : 0);
  } catch (error) {
    clearTimeout(timer);
    plan.warn(`shutdown step failed: ${(error as Error).message}`);
    await plan.finally?.().catch(() => undefined);
    plan.exit(1);
  }
}
