/** Over a rate limit: answered 429 with Retry-After in whole seconds, at least 1. */
export class TooManyRequestsError extends Error {
  readonly retryAfterSeconds: number;
  constructor(retryAfterMs: number) {
    super('rate limit exceeded');
    this.name = 'TooManyRequestsError';
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  }
}
