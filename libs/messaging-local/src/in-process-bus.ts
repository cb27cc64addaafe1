import type { CashInTrace, PixRecebidoMessage } from '@pix/contracts';

/** What a consumer does with cash-ins: the same batch handler the Kafka transport calls; `traces[i]` is `batch[i]`'s. */
export type CashInBatchHandler = (batch: PixRecebidoMessage[], traces?: readonly (CashInTrace | undefined)[]) => Promise<void>;

/**
 * Local mode's transport when there is no broker: publishing runs every subscriber's batch
 * handler, with a batch of one, to the end before it returns, so once the sandbox answers, the
 * cash-in is settled and its notification stored (nothing waits in memory). The message is
 * already typed: the sandbox built it from a validated request.
 */
export class InProcessCashInBus {
  private readonly handlers = new Map<string, CashInBatchHandler>();

  subscribe(consumerName: string, handler: CashInBatchHandler): void {
    this.handlers.set(consumerName, handler);
  }

  async publish(message: PixRecebidoMessage, trace?: CashInTrace): Promise<void> {
    for (const handler of this.handlers.values()) await handler([message], [trace]);
  }
}
