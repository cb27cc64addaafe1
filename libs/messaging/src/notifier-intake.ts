import type { PixRecebidoMessage } from '@pix/contracts';
import { toOfficialPix, webhookDecider, webhookStreamId, type WebhookEvent } from '@pix/domain';
import { aggregateStream, streamType, type EventStore } from '@pix/event-store';
import type { PixNotificationInput } from '@pix/webhook-delivery';

/** The key's webhook stream, typed by its aggregate's events (ADR 14). */
const webhookStream = streamType<WebhookEvent, [string]>({ WebhookConfigurado: true, WebhookRemovido: true }, webhookStreamId);

/** The authoritative registration of a key: read from its stream, so no read-model lag. */
export class EventStoreWebhookRegistrations {
  constructor(private readonly store: EventStore) {}

  async urlFor(chave: string): Promise<string | undefined> {
    const { state } = await aggregateStream(this.store, webhookStream(chave), webhookDecider);
    return state.exists ? state.webhookUrl : undefined;
  }
}

export interface NotificationSink {
  enqueueMany(inputs: PixNotificationInput[]): Promise<{ created: number }>;
}

/**
 * The notifier's intake: every Pix of the batch with a txid whose key has a webhook becomes one
 * stored notification (idempotent by endToEndId), all in one statement; each distinct key's
 * webhook is read once per batch. The webhook is checked again at every delivery, so one
 * removed meanwhile gets nothing more.
 */
export async function notifyCashIns(batch: PixRecebidoMessage[], registrations: Pick<EventStoreWebhookRegistrations, 'urlFor'>, sink: NotificationSink): Promise<{ created: number }> {
  const withTxid = batch.filter((m) => m.txid);
  const keys = [...new Set(withTxid.map((m) => m.chave))];
  const urls = await Promise.all(keys.map((chave) => registrations.urlFor(chave)));
  const registered = new Set(keys.filter((_, i) => urls[i] !== undefined));
  const inputs = withTxid
    .filter((m) => registered.has(m.chave))
    .map(({ versao: _v, ...pix }) => ({ endToEndId: pix.endToEndId, chave: pix.chave, txid: pix.txid!, pix: toOfficialPix(pix) }));
  return inputs.length > 0 ? sink.enqueueMany(inputs) : { created: 0 };
}
