import type { CashInTrace, PixRecebidoMessage } from '@pix/contracts';

/** Publishes a cash-in exactly as a PSP's core would (Kafka, or local mode's in-process transport). */
export interface CashInPublisher {
  publish(message: PixRecebidoMessage, trace?: CashInTrace): Promise<void>;
}

/**
 * What a consumer does with cash-ins, whatever transport brings them: a batch of valid
 * messages, in their partition's order, handled as a whole (it fails or succeeds as one and is
 * then retried whole, so it must be idempotent by endToEndId).
 */
export type CashInBatchHandler = (batch: PixRecebidoMessage[], traces?: readonly (CashInTrace | undefined)[]) => Promise<void>;
