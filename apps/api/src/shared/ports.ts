import type { Recebedor } from '@pix/domain';

/** Time and ids come in through ports so business dates are testable and reproducible. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface LocationIds {
  /** A new payload location: numeric id and its scheme-less URL (`host/path`, as the BR Code carries it). */
  next(): Promise<{ id: number; location: string }>;
}

/** Receivers (tenants) and their Pix keys, as the administration wrote them. */
export interface ReceiverDirectory {
  /** The receiver with its current keys, or undefined when there is none by that id. */
  recebedor(id: string): Promise<Recebedor | undefined>;
  /** The receiver that owns a Pix key here (at `at`, when given: a Pix's horario), or undefined when none does. */
  ownerOfChave(chave: string, at?: Date): Promise<string | undefined>;
}
