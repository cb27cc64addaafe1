/**
 * Serialises work per key inside one process, so concurrent requests for one charge queue up
 * instead of racing to the store and retrying; across processes the expected revision still
 * decides.
 *
 * On every PUT's path, so it makes one promise of its own per run (the queue's tail, which also
 * forgets the key once nobody waits behind it), not an async function and a chain of catches.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key);
    // Tails never reject, so work starts when the previous one settled, whatever its outcome.
    const result = previous === undefined ? start(work) : previous.then(work);
    const release = () => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
    const tail: Promise<void> = result.then(release, release);
    this.tails.set(key, tail);
    return result;
  }

  /** Keys with work running or queued (for tests). */
  get size(): number {
    return this.tails.size;
  }
}

/** `work()` as a promise, a synchronous throw included (as `.then(work)` would give it). */
function start<T>(work: () => Promise<T>): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}
