/** Time and ids come in through ports so business dates are testable and reproducible. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface LocationIds {
  /** A new payload location: numeric id and its URL (https implied for the BR Code). */
  next(): Promise<{ id: number; location: string }>;
}
