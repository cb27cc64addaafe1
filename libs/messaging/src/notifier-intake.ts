import type { CashInTrace, PixRecebidoMessage } from '@pix/contracts';
import { toOfficialPix, WEBHOOK_SNAPSHOT, webhookDecider, webhookStreamId, type WebhookEvent, type WebhookState } from '@pix/domain';
import { aggregateStream, streamType, type EventStore, type SnapshotStore, type Snapshotting } from '@pix/event-store';
import type { IntakeItem } from '@pix/webhook-delivery';
import { paidToCurrentHolder, type KeyHistory } from './key-history';

/** The key's webhook stream, typed by its aggregate's events (ADR 14). */
const webhookStream = streamType<WebhookEvent, [string]>({ WebhookConfigurado: true, WebhookRemovido: true }, webhookStreamId);

/** The authoritative registration of a key: read from its stream, so no read-model lag. */
export class EventStoreWebhookRegistrations {
  /** When each key's webhook was last removed before its current registration, from its latest read. */
  private readonly removed = new Map<string, string>();
  private readonly snapshots?: Snapshotting<WebhookState>;

  /** `snapshots`: where the key streams' snapshots are (the API's own, shared), so a long stream is not folded at every read. */
  constructor(private readonly store: EventStore, snapshots?: SnapshotStore) {
    this.snapshots = snapshots && { store: snapshots, ...WEBHOOK_SNAPSHOT };
  }

  async urlFor(chave: string): Promise<string | undefined> {
    const { state } = await aggregateStream(this.store, webhookStream(chave), webhookDecider, this.snapshots);
    if (state.exists && state.removidoEm !== undefined) this.removed.set(chave, state.removidoEm);
    else this.removed.delete(chave);
    return state.exists ? state.webhookUrl : undefined;
  }

  removedBefore(chave: string): string | undefined {
    return this.removed.get(chave);
  }
}

export interface NotificationSink {
  enqueueMany(inputs: IntakeItem[]): Promise<{ created: number }>;
}

/**
 * The notifier's intake: every Pix of the batch with a txid whose key has a webhook, paid while
 * the key's current holder held it, becomes one stored notification (idempotent by endToEndId),
 * all in one statement; each distinct key's webhook and history are read once per batch. A Pix
 * paid to the key's former holder is not told to the new one (ADR 9). The webhook is checked
 * again at every delivery, so one removed meanwhile gets nothing more.
 * The other Pix go to the sink too, as skipped: settlement keeps an endToEndId's first copy over
 * every valid message, so the notifier must judge "first" over the same set, or a second copy
 * with other content (ignored by settlement) would be notified (ADR 7). `traces[i]` is `batch[i]`'s
 * (the transport's, ADR 17).
 */
export async function notifyCashIns(
  batch: PixRecebidoMessage[],
  registrations: Pick<EventStoreWebhookRegistrations, 'urlFor'>,
  keys: KeyHistory,
  sink: NotificationSink,
  traces: readonly (CashInTrace | undefined)[] = [],
): Promise<{ created: number }> {
  const chaves = [...new Set(batch.filter((m) => m.txid).map((m) => m.chave))];
  const [urls, histories] = await Promise.all([Promise.all(chaves.map((chave) => registrations.urlFor(chave))), Promise.all(chaves.map((chave) => keys.of(chave)))]);
  const byKey = new Map(chaves.map((chave, i) => [chave, { url: urls[i], history: histories[i] }]));
  const notified = (m: Pick<PixRecebidoMessage, 'txid' | 'chave' | 'horario'>): boolean => {
    const key = m.txid ? byKey.get(m.chave) : undefined;
    return key !== undefined && key.url !== undefined && paidToCurrentHolder(key.history, m.horario);
  };
  // Each notification keeps the id of the request that published its cash-in, for its delivery lines (ADR 17).
  const items = batch.map(({ versao: _v, ...pix }, i): IntakeItem => {
    if (!notified(pix)) return { endToEndId: pix.endToEndId, skipped: true };
    const correlationId = traces[i]?.correlationId;
    return { endToEndId: pix.endToEndId, chave: pix.chave, txid: pix.txid!, pix: toOfficialPix(pix), ...(correlationId ? { correlationId } : {}) };
  });
  return items.length > 0 ? sink.enqueueMany(items) : { created: 0 };
}
