import type { PixRecebidoMessage } from '@pix/contracts';

/** Publishes a cash-in exactly as a PSP's core would. */
export interface CashInPublisher {
  publish(message: PixRecebidoMessage): Promise<void>;
}

export type CashInHandler = (message: PixRecebidoMessage) => Promise<void>;

/**
 * Local mode's transport when there is no broker: publishing runs every subscriber to the end
 * before it returns, so once the sandbox answers, the cash-in is settled and its notification
 * stored (nothing waits in memory).
 */
export class InProcessCashInBus implements CashInPublisher {
  private readonly handlers = new Map<string, CashInHandler>();

  subscribe(consumerName: string, handler: CashInHandler): void {
    this.handlers.set(consumerName, handler);
  }

  async publish(message: PixRecebidoMessage): Promise<void> {
    // Same validation as a Kafka consumer applies: a message either side would refuse is refused here.
    for (const handler of this.handlers.values()) await handler(message);
  }
}
