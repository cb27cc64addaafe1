import { chaveDecider, clienteDecider, recebedorDecider, type ChaveCommand, type ClienteCommand, type Decider, type RecebedorCommand } from '@pix/domain';
import { aggregateStream, handleCommand, type DomainEvent, type EventStore, type TypedStream } from '@pix/event-store';
import { chaveStream, clienteStream, recebedorStream } from '../shared/streams';
import type { ChargesOnKey } from './admin/key-charges';

/** What access writes need: the store, the time, and (for start-up seeding) deterministic event ids. */
export interface AccessContext {
  store: EventStore;
  now?: () => Date;
  /** Defaults to random ids; seeding passes a deterministic function so a repeated seed adds nothing. */
  eventId?: (streamId: string, revision: bigint, index: number) => string;
  /** The notifier's outbox, where this process can reach it (PostgreSQL): a key that leaves its receiver retires its notifications. */
  notifications?: { retireKey(chave: string, reason: string): Promise<number> };
  /** The receiver's charges on a key (the charge read model): a key that leaves its receiver takes its ATIVA charges with it. */
  charges?: ChargesOnKey;
  /** The API's AUTH_CACHE_MS: how long a running API may still see a key it was just unlisted from. */
  directoryCacheMs?: number;
}

export async function readState<C, E extends DomainEvent, S>(store: EventStore, stream: TypedStream<E>, decider: Decider<C, E, S>): Promise<{ state: S }> {
  return aggregateStream(store, stream, decider);
}

/** The one command handler, with the access context's time and (when seeding) fixed event ids. */
export async function runOnStream<C, E extends DomainEvent, S>(ctx: AccessContext, stream: TypedStream<E>, decider: Decider<C, E, S>, build: (state: S, now: Date) => C): Promise<{ state: S; events: E[] }> {
  const eventId = ctx.eventId;
  const { state, events } = await handleCommand(ctx.store, stream, decider, (s) => build(s, ctx.now?.() ?? new Date()), {
    maxAttempts: 20,
    ...(eventId ? { eventId: (revision: bigint, index: number) => eventId(stream.id, revision, index) } : {}),
  });
  return { state, events };
}

export const onRecebedor = (ctx: AccessContext, id: string, build: (now: Date) => RecebedorCommand) => runOnStream(ctx, recebedorStream(id), recebedorDecider, (_s, now) => build(now));
export const onChave = (ctx: AccessContext, chave: string, build: (now: Date) => ChaveCommand) => runOnStream(ctx, chaveStream(chave), chaveDecider, (_s, now) => build(now));
export const onCliente = (ctx: AccessContext, clientId: string, build: (now: Date) => ClienteCommand) => runOnStream(ctx, clienteStream(clientId), clienteDecider, (_s, now) => build(now));

export const loadRecebedor = async (store: EventStore, id: string) => (await readState(store, recebedorStream(id), recebedorDecider)).state;
export const loadCliente = async (store: EventStore, clientId: string) => (await readState(store, clienteStream(clientId), clienteDecider)).state;
export const loadChave = async (store: EventStore, chave: string) => (await readState(store, chaveStream(chave), chaveDecider)).state;

/** Index streams (append-only lists of ids) so receivers and clients can be listed without a scan. */
export const RECEIVER_INDEX_STREAM = 'access-recebedores';
export const CLIENT_INDEX_STREAM = 'access-clientes';
