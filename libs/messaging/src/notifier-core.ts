import type { Pool } from 'pg';
import type { CashInTrace, PixRecebidoMessage } from '@pix/contracts';
import { PostgresSnapshotStore, type EventStore } from '@pix/event-store';
import { DeliveryWorker, NotificationOutbox, type DeliveryConfig } from '@pix/webhook-delivery';
import { EventStoreKeyHistory, type KeyHistory } from './key-history';
import { EventStoreWebhookRegistrations, notifyCashIns } from './notifier-intake';

export interface NotifierLogger {
  log(message: string): void;
  error(message: string): void;
  warn?(message: string): void;
}

/**
 * The notifier's work, whatever brings the cash-ins (Kafka in the notifier app, the in-process
 * transport in local mode): intake into the durable outbox, and the delivery worker.
 */
export class NotifierCore {
  private constructor(
    readonly outbox: NotificationOutbox,
    private readonly worker: DeliveryWorker,
    private readonly keys: KeyHistory,
  ) {}

  static async create(pool: Pool, store: EventStore, config: DeliveryConfig, logger: NotifierLogger): Promise<NotifierCore> {
    const outbox = await NotificationOutbox.create(pool);
    const worker = new DeliveryWorker(pool, new EventStoreWebhookRegistrations(store, new PostgresSnapshotStore(pool)), config, { now: () => new Date() }, logger);
    return new NotifierCore(outbox, worker, new EventStoreKeyHistory(store));
  }

  /**
   * Stores the batch's notifications through the worker, which claims what it has room for in
   * the same round trip, so they go at once. Webhooks are read through the worker's shared reads
   * (ADR 7): a key that is being paid and notified steadily costs no read per Kafka batch.
   */
  handleBatch = async (batch: PixRecebidoMessage[], traces: readonly (CashInTrace | undefined)[] = []): Promise<void> => {
    await notifyCashIns(batch, { urlFor: (chave) => this.worker.webhookUrlFor(chave) }, this.keys, this.worker, traces);
  };

  start(): Promise<void> {
    return this.worker.start();
  }

  stop(): Promise<void> {
    return this.worker.stop();
  }
}
