import type { PixRecebidoMessage } from '@pix/contracts';
import { toOfficialPix, webhookDecider, webhookStreamId, type WebhookEvent } from '@pix/domain';
import { aggregateStream, streamType, type EventStore } from '@pix/event-store';

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
  enqueue(input: { endToEndId: string; chave: string; txid: string; pix: Record<string, unknown> }): Promise<{ id: string; created: boolean }>;
}

/**
 * The notifier's intake: a Pix with a txid whose key has a webhook becomes one stored
 * notification (idempotent by endToEndId); the delivery worker takes it from there. The webhook is
 * checked again at every delivery, so one removed meanwhile gets nothing more.
 */
export async function notifyCashIn(message: PixRecebidoMessage, registrations: Pick<EventStoreWebhookRegistrations, 'urlFor'>, sink: NotificationSink): Promise<void> {
  if (!message.txid) return;
  if (!(await registrations.urlFor(message.chave))) return;
  const { versao: _v, ...pix } = message;
  await sink.enqueue({ endToEndId: message.endToEndId, chave: message.chave, txid: message.txid, pix: toOfficialPix(pix) });
}
