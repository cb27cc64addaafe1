import { parsePixRecebidoMessage, type CashInTrace, type PixRecebidoMessage } from '@pix/contracts';

/** What a consumer does with cash-ins: the same batch handler the Kafka transport calls; `traces[i]` is `batch[i]`'s. */
export type CashInBatchHandler = (batch: PixRecebidoMessage[], traces?: readonly (CashInTrace | undefined)[]) => Promise<void>;

/**
 * Local mode's transport when there is no broker: publishing runs every subscriber's batch
 * handler, with a batch of one, to the end before it returns, so once the sandbox answers, the
 * cash-in is settled and its notification stored (nothing waits in memory). The message goes
 * through the contract every Kafka consumer applies, judged at the publish time (there is no
 * record timestamp here), so handlers get the same normalised values; there is no dead-letter
 * topic, so a refused message is the publisher's error.
 */
export class InProcessCashInBus {
  private readonly handlers = new Map<string, CashInBatchHandler>();

  /** `now`: the publish time, the application's clock (the one the sandbox stamps horario with). */
  constructor(private readonly now: () => Date = () => new Date()) {}

  subscribe(consumerName: string, handler: CashInBatchHandler): void {
    this.handlers.set(consumerName, handler);
  }

  async publish(message: PixRecebidoMessage, trace?: CashInTrace): Promise<void> {
    const parsed = parsePixRecebidoMessage(JSON.stringify(message), this.now());
    if (parsed.value === undefined) throw new Error(`cash-in ${message.endToEndId} refused: ${parsed.error ?? 'invalid'}`);
    for (const handler of this.handlers.values()) await handler([parsed.value], [trace]);
  }
}
