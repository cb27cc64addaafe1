import { chaveDecider, chaveStreamId, holderAt, type ChaveEvent, type ChaveState } from '@pix/domain';
import { aggregateStream, streamType, type EventStore } from '@pix/event-store';

/** The key's claims and releases, typed by its aggregate's events (ADR 14). */
const chaveStream = streamType<ChaveEvent, [string]>({ ChaveReivindicada: true, ChaveLiberada: true }, chaveStreamId);

/** How long one read of a key's history serves later batches: keys move only by an operator's hand. */
const REUSE_MS = 1000;

export interface KeyHistory {
  /** The key's holding history (empty when no receiver here ever claimed it). */
  of(chave: string): Promise<ChaveState>;
}

/**
 * Whether a Pix to the key, paid at `horario`, is the current holder's to be told of: the
 * registered webhook is the current holder's, and a cash-in read after the key moved belongs to
 * the receiver that held it then (ADR 9). A key no receiver here ever claimed has no history to
 * say otherwise.
 */
export function paidToCurrentHolder(history: ChaveState, horario: string): boolean {
  return history.periodos.length === 0 || (history.dono !== undefined && holderAt(history, new Date(horario)) === history.dono);
}

/** Keys' histories from their streams, a read reused for REUSE_MS (a failed one is not kept). */
export class EventStoreKeyHistory implements KeyHistory {
  private readonly reads = new Map<string, { at: number; state: Promise<ChaveState> }>();

  constructor(
    private readonly store: EventStore,
    private readonly now: () => number = () => performance.now(),
  ) {}

  of(chave: string): Promise<ChaveState> {
    const at = this.now();
    const read = this.reads.get(chave);
    if (read && at - read.at < REUSE_MS) return read.state;
    if (this.reads.size > 1000) for (const [k, r] of this.reads) if (at - r.at >= REUSE_MS) this.reads.delete(k);
    const state = aggregateStream(this.store, chaveStream(chave), chaveDecider).then((r) => r.state);
    const entry = { at, state };
    this.reads.set(chave, entry);
    state.catch(() => void (this.reads.get(chave) === entry && this.reads.delete(chave)));
    return state;
  }
}
