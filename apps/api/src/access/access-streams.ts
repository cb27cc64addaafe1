import { randomUUID } from 'node:crypto';
import {
  chaveDecider,
  chaveStreamId,
  clienteDecider,
  clienteStreamId,
  recebedorDecider,
  recebedorStreamId,
  type ChaveCommand,
  type ClienteCommand,
  type Decider,
  type RecebedorCommand,
} from '@pix/domain';
import { WrongExpectedRevisionError, type EventStore, type ExpectedRevision } from '@pix/event-store';

/** What access writes need: the store, the time, and (for start-up seeding) deterministic event ids. */
export interface AccessContext {
  store: EventStore;
  now?: () => Date;
  /** Defaults to random ids; seeding passes a deterministic function so a repeated seed adds nothing. */
  eventId?: (streamId: string, revision: bigint, index: number) => string;
}

type AnyEvent = { type: string; data: object };

export async function readState<C, E extends AnyEvent, S>(store: EventStore, streamId: string, decider: Decider<C, E, S>): Promise<{ state: S; expected: ExpectedRevision }> {
  const recorded = await store.readStream(streamId);
  const state = recorded.reduce((s, e) => decider.evolve(s, { type: e.type, data: e.data } as E), decider.initialState);
  return { state, expected: recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1].revision };
}

/**
 * Read, decide, append at the revision read (no_stream for a new stream); a concurrent writer
 * makes us decide again. Domain errors pass through.
 */
export async function runOnStream<C, E extends AnyEvent, S>(ctx: AccessContext, streamId: string, decider: Decider<C, E, S>, build: (state: S, now: Date) => C): Promise<{ state: S; events: E[] }> {
  for (let attempt = 1; ; attempt++) {
    const { state, expected } = await readState(ctx.store, streamId, decider);
    const events = decider.decide(build(state, ctx.now?.() ?? new Date()), state);
    if (events.length === 0) return { state, events };
    const next = expected === 'no_stream' ? 0n : (expected as bigint) + 1n;
    const id = (i: number) => ctx.eventId?.(streamId, next + BigInt(i), i) ?? randomUUID();
    try {
      await ctx.store.appendToStream(streamId, events.map((e, i) => ({ id: id(i), type: e.type, data: e.data as Record<string, unknown> })), expected);
      return { state: events.reduce(decider.evolve, state), events };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= 20) throw error;
    }
  }
}

export const onRecebedor = (ctx: AccessContext, id: string, build: (now: Date) => RecebedorCommand) => runOnStream(ctx, recebedorStreamId(id), recebedorDecider, (_s, now) => build(now));
export const onChave = (ctx: AccessContext, chave: string, build: (now: Date) => ChaveCommand) => runOnStream(ctx, chaveStreamId(chave), chaveDecider, (_s, now) => build(now));
export const onCliente = (ctx: AccessContext, clientId: string, build: (now: Date) => ClienteCommand) => runOnStream(ctx, clienteStreamId(clientId), clienteDecider, (_s, now) => build(now));

export const loadRecebedor = async (store: EventStore, id: string) => (await readState(store, recebedorStreamId(id), recebedorDecider)).state;
export const loadCliente = async (store: EventStore, clientId: string) => (await readState(store, clienteStreamId(clientId), clienteDecider)).state;
export const loadChave = async (store: EventStore, chave: string) => (await readState(store, chaveStreamId(chave), chaveDecider)).state;

/** Index streams (append-only lists of ids) so receivers and clients can be listed without a scan. */
export const RECEIVER_INDEX_STREAM = 'access-recebedores';
export const CLIENT_INDEX_STREAM = 'access-clientes';
