import { holderAt, pixKeyType, type ChaveState, type PixScope, type Recebedor } from '@pix/domain';
import type { EventStore } from '@pix/event-store';
import type { ReceiverDirectory } from '../shared/ports';
import { loadChave, loadCliente, loadRecebedor } from './access-streams';
import { toRecebedor } from './admin/operations';

/** What the token endpoint and the guard need to know about a client. */
export interface ClientRecord {
  clientId: string;
  recebedorId: string;
  scopes: PixScope[];
  enabled: boolean;
  generation: number;
  secretHash: string;
}

/**
 * Receivers, their keys and OAuth2 clients, read from their streams and kept in memory for
 * `cacheMs`: a warm request does no database round trip, and what the operator changes
 * (a disabled client, a rotated secret, a new key) counts everywhere within that window.
 */
export class AccessDirectory implements ReceiverDirectory {
  private readonly receivers: TtlCache<Recebedor | undefined>;
  private readonly keys: TtlCache<ChaveState>;
  private readonly clients: TtlCache<ClientRecord | undefined>;

  constructor(
    private readonly store: EventStore,
    cacheMs: number,
    now: () => number = Date.now,
  ) {
    this.receivers = new TtlCache(cacheMs, now);
    this.keys = new TtlCache(cacheMs, now);
    this.clients = new TtlCache(cacheMs, now);
  }

  recebedor(id: string): Promise<Recebedor | undefined> {
    return this.receivers.get(id, async () => toRecebedor(await loadRecebedor(this.store, id)));
  }

  /**
   * The key's holder now, or at `at` (a Pix's horario: a cash-in read after the key moved is the
   * former holder's, ADR 9). The holder now counts only when that receiver also lists the key (a
   * half-done add or remove is no owner); a former holding is history, closed by its release.
   */
  async ownerOfChave(chave: string, at?: Date): Promise<string | undefined> {
    if (pixKeyType(chave) === null) return undefined;
    const state = await this.keys.get(chave, () => loadChave(this.store, chave));
    const holder = at ? holderAt(state, at) : state.dono;
    if (holder === undefined || holder !== state.dono) return holder;
    return (await this.recebedor(holder))?.chaves.includes(chave) ? holder : undefined;
  }

  /** `fresh` reads the stream now (the token endpoint) and refreshes the cached entry. */
  client(clientId: string, options: { fresh?: boolean } = {}): Promise<ClientRecord | undefined> {
    return this.clients.get(
      clientId,
      async () => {
        const c = await loadCliente(this.store, clientId);
        if (!c.exists) return undefined;
        return { clientId, recebedorId: c.recebedorId, scopes: c.scopes, enabled: c.enabled, generation: c.generation, secretHash: c.secretHash };
      },
      options.fresh,
    );
  }
}

/**
 * Entries expire `ttlMs` after loading; concurrent misses share one load, and a failed load is
 * not kept. Expired entries are swept when the map grows, so arbitrary keys cannot pile up.
 */
class TtlCache<V> {
  private readonly entries = new Map<string, { value: Promise<V>; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  get(key: string, load: () => Promise<V>, fresh = false): Promise<V> {
    const at = this.now();
    const hit = this.entries.get(key);
    if (hit && !fresh && hit.expiresAt > at) return hit.value;
    if (this.entries.size >= 10_000) this.sweep(at);
    const value = load();
    const entry = { value, expiresAt: at + this.ttlMs };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  private sweep(at: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= at) this.entries.delete(key);
    // Still full of live entries: start over rather than grow without bound.
    if (this.entries.size >= 10_000) this.entries.clear();
  }
}
