import { CASH_IN_DEAD_LETTER_TOPIC, parsePixRecebidoMessage } from '@pix/contracts';
import type { Producer } from 'kafkajs';
import type { CashInHandler } from './cash-in-bus';

export interface RawMessage {
  topic: string;
  partition: number;
  offset: string;
  key?: Buffer | string | null;
  value: Buffer | string | null;
  /** Keeps the consumer's group membership while a message is retried (kafkajs's `heartbeat`). */
  heartbeat?: () => Promise<void>;
}

export interface ConsumeDeps {
  deadLetters: Pick<Producer, 'send'>;
  consumerName: string;
  logger: { log(m: string): void; error(m: string): void };
  /** Stop retrying (shutdown). */
  stopped(): boolean;
}

/**
 * What every consumer does with one cash-in message: validate; an invalid one goes to the
 * dead-letter topic with the reason (and never stops the consumer); a valid one is handled,
 * retried with backoff until it succeeds, so its offset is committed only after the effect.
 * Handlers are idempotent by endToEndId, so a redelivered message changes nothing.
 */
export async function consumeCashIn(message: RawMessage, handler: CashInHandler, deps: ConsumeDeps): Promise<void> {
  const parsed = parsePixRecebidoMessage(message.value);
  if (!parsed.value) {
    const send = () =>
      deps.deadLetters.send({
        topic: CASH_IN_DEAD_LETTER_TOPIC,
        acks: -1,
        messages: [
          {
            key: message.key ?? null,
            value: message.value,
            headers: {
              'dlt-reason': parsed.error ?? 'invalid',
              'dlt-consumer': deps.consumerName,
              'dlt-source': `${message.topic}/${message.partition}/${message.offset}`,
            },
          },
        ],
      });
    // The offset is committed only once the dead letter is stored: a broker outage is waited out.
    await retrying(send, `dead-lettering ${message.topic}/${message.partition}/${message.offset}`, deps, message.heartbeat);
    deps.logger.error(`${deps.consumerName}: message ${message.topic}/${message.partition}/${message.offset} is invalid (${parsed.error}); sent to ${CASH_IN_DEAD_LETTER_TOPIC}`);
    return;
  }
  const pix = parsed.value;
  await retrying(() => handler(pix), `handling ${pix.endToEndId}`, deps, message.heartbeat);
}

/** Runs `work` until it succeeds, backing off (capped at 30 s); gives up only on shutdown. */
async function retrying(work: () => Promise<unknown>, what: string, deps: ConsumeDeps, heartbeat?: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await work();
      return;
    } catch (error) {
      if (deps.stopped()) throw error;
      deps.logger.error(`${deps.consumerName}: ${what} failed (attempt ${attempt}); retrying: ${error instanceof Error ? error.message : String(error)}`);
      // Back off in short slices so a shutdown is not held up by a long wait; heartbeats keep the
      // group from handing the partition to another member meanwhile (kafkajs sends one at most
      // once per heartbeatInterval; a failed one, broker down, is for the next attempt to notice).
      for (const until = Date.now() + Math.min(30_000, 100 * 2 ** Math.min(attempt, 9)); Date.now() < until && !deps.stopped(); ) {
        await new Promise((r) => setTimeout(r, 100));
        await heartbeat?.().catch(() => undefined);
      }
    }
  }
}
