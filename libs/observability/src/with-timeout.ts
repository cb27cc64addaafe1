/** `promise`, or a rejection with `message` once `ms` have passed (the timer never outlives it). */
export function withTimeout<T>(promise: Promise<T>, ms: number, message = 'timed out'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
