import { CASH_IN_DEAD_LETTER_TOPIC, CASH_IN_TOPIC, parsePixRecebidoMessage, type PixRecebidoMessage } from '@pix/contracts';
import type { TopicContract } from './validated-batch';

/** The cash-in topic as every consumer reads it (ADR 7): the contracts library's parser, its dead-letter topic. */
export const CASH_IN_CONTRACT: Record<string, TopicContract<PixRecebidoMessage>> = {
  [CASH_IN_TOPIC]: { parse: parsePixRecebidoMessage, deadLetterTopic: CASH_IN_DEAD_LETTER_TOPIC },
};
