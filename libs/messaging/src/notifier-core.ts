import type { Pool } from 'pg';
import type { PixRecebidoMessage } from '@pix/contracts';
import type { EventStore } from '@pix/event-store';
import { DeliveryWorker, NotificationOutbox, type DeliveryConfig } from '@pix/webhook-delivery';
import { EventStoreWebhookRegistrations, notifyCashIns } from './notifier-intake';

export interface NotifierLogger {
  log(message: string): void;
  error(message: string): void;
}

/**
 * The notifier's work, whatever brings the cash-ins (Kafka in the notifier app, the in-process
 * transport in local mode): intake into the durable outbox, and the delivery worker.
 */
export class NotifierCore {
  private constructor(
    readonly outbox: NotificationOutbox,
    private readonly worker: DeliveryWorker,
    private readonly registrations: EventStoreWebhookRegistrations,
  ) {}

  static async create(pool: Pool, store: EventStore, config: DeliveryConfig, logger: NotifierLogger): Promise<NotifierCore> {
    const registrations = new EventStoreWebhookRegistrations(store);
    const outbox = await NotificationOutbox.create(pool);
    const worker = new DeliveryWorker(pool, registrations, config, { now: () => new Date() }, logger);
    return new NotifierCore(outbox, worker, registrations);
  }

  /** Stores the batch's notifications (one statement), then wakes the worker so they go at once, not at the next poll. */
  handleBatch = async (batch: PixRecebidoMessage[]): Promise<void> => {
    const { created } = await notifyCashIns(batch, this.registrations, this.outbox);
    if (created > 0) this.worker.nudge();
  };

  start(): Promise<void> {
    return this.worker.start();
  }

  stop(): Promise<void> {
    return this.worker.stop();
  }
}
