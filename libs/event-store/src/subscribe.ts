import type { EventStore, GlobalPosition, RecordedEvent } from './port';

export interface CatchUpOptions {
  /** Exclusive start; undefined = from the first event. */
  after?: GlobalPosition;
  batchSize?: number;
  /** Fallback poll when no wake-up arrives (events of older transactions can become visible silently). */
  idlePollMs?: number;
  /** Applies a page and returns the checkpoint now durable; the loop continues from there. */
  handle(events: RecordedEvent[]): Promise<GlobalPosition | undefined>;
  onError?(error: unknown): void;
  /**
   * While true (someone waits for a write to show), poll every few milliseconds instead of
   * backing off: an unrelated open transaction can hide new events without any wake-up.
   */
  pollWhile?(): boolean;
}

export interface Subscription {
  stop(): Promise<void>;
  /** Nudge the loop (e.g. after a local write) without waiting for the poll. */
  wake(): void;
}

/**
 * Catch-up subscription to all events, built only on the port: read a page after the
 * checkpoint, hand it over, repeat; sleep until a wake-up or the idle poll when there is none.
 * After a wake-up that found nothing, it retries shortly a few times: the wake-up may come from
 * a younger transaction whose events wait for an older one to finish.
 */
export function subscribeToAll(store: EventStore, options: CatchUpOptions): Subscription {
  const batchSize = options.batchSize ?? 500;
  const idlePollMs = options.idlePollMs ?? 1000;
  let checkpoint = options.after;
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  let woken = false;
  let emptyRetries = 0;
  const wake = () => {
    woken = true;
    emptyRetries = 0;
    wakeUp?.();
  };
  const unsubscribe = store.onAppended(wake);

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopped) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  const loop = (async () => {
    while (!stopped) {
      try {
        woken = false;
        const events = await store.readAll({ after: checkpoint, maxCount: batchSize });
        if (events.length > 0) {
          emptyRetries = 0;
          checkpoint = (await options.handle(events)) ?? events[events.length - 1].position;
          continue;
        }
        if (woken) continue;
        const backoff = options.pollWhile?.() ? 5 : emptyRetries < 6 ? 2 ** emptyRetries * 2 : idlePollMs;
        emptyRetries++;
        await sleep(backoff);
      } catch (error) {
        options.onError?.(error);
        await sleep(Math.min(idlePollMs, 500));
      }
    }
  })();

  return {
    wake,
    async stop() {
      stopped = true;
      unsubscribe();
      wakeUp?.();
      await loop;
    },
  };
}
