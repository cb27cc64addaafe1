import { Controller, Inject, UseFilters } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { CASH_IN_TOPIC, type CashInTrace, type PixRecebidoMessage } from '@pix/contracts';
import type { NotifierCore } from './notifier-core';
import { PassHandlerErrors } from './pass-handler-errors';

/** The transport id of the notifier's consumer group: its server takes only this controller's handler. */
export const NOTIFIER_INTAKE = Symbol('pix-notifier');
/** The app provides its NotifierCore under this token. */
export const NOTIFIER_CORE = Symbol('NotifierCore');

/**
 * Cash-ins (a batch, validated by the transport) → the durable outbox. A failure fails the
 * batch, which the transport retries whole: storing is idempotent by endToEndId.
 */
@Controller()
@UseFilters(PassHandlerErrors)
export class NotifierIntakeController {
  constructor(@Inject(NOTIFIER_CORE) private readonly core: Pick<NotifierCore, 'handleBatch'>) {}

  @EventPattern(CASH_IN_TOPIC, NOTIFIER_INTAKE)
  /** The context is the Kafka transport's batch context (ADR 17: each message's `x-correlation-id`), read by shape. */
  onCashIns(@Payload() batch: PixRecebidoMessage[], @Ctx() context?: { getTraces?(): readonly (CashInTrace | undefined)[] }): Promise<void> {
    return this.core.handleBatch(batch, context?.getTraces?.() ?? []);
  }
}
