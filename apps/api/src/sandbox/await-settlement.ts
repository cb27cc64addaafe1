import type { PixRecebidoMessage } from '@pix/contracts';
import { cobvDecider, pixDecider } from '@pix/domain';
import { aggregateStream, type EventStore } from '@pix/event-store';
import { cobvStream, pixStream } from '../shared/streams';

const POLL_MS = 50;

/**
 * Over Kafka, settlement runs after the publish returns (ADR 7), so the sandbox payer's next
 * checks would not see this payment yet. Waits, at most about `timeoutMs`, until settlement has
 * recorded the Pix and, for a charge of a receiver here, concluded it (or found it no longer
 * ATIVA). False when the time ran out (the consumers have not joined yet, say): the Pix is
 * published all the same and will be settled.
 */
export async function awaitSettlement(store: EventStore, message: PixRecebidoMessage, timeoutMs: number): Promise<boolean> {
  for (let attempts = Math.ceil(timeoutMs / POLL_MS); ; attempts--) {
    if (await isSettled(store, message)) return true;
    if (attempts <= 0) return false;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function isSettled(store: EventStore, message: PixRecebidoMessage): Promise<boolean> {
  const { state: recorded } = await aggregateStream(store, pixStream(message.endToEndId), pixDecider);
  if (!recorded.exists) return false;
  // Settlement concludes the charge of the Pix it recorded first, and only if it has a receiver here.
  const { pix, recebedorId } = recorded;
  if (!pix.txid || !recebedorId) return true;
  const { state: charge } = await aggregateStream(store, cobvStream(recebedorId, pix.txid), cobvDecider);
  return !charge.exists || charge.status !== 'ATIVA';
}
