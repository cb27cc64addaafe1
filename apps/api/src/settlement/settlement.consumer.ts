import { Controller, UseFilters } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { CASH_IN_TOPIC, type PixRecebidoMessage } from '@pix/contracts';
import { PassHandlerErrors } from '@pix/messaging';
import type { KafkaBatchContext } from '@pix/messaging-kafka';
import { Public } from '../auth/auth-context';
import { SettleCashIn } from './settle-cash-in';

/** The transport id of the API's settlement group (SETTLEMENT_GROUP_ID): its server takes only this handler. */
export const SETTLEMENT_TRANSPORT = Symbol('pix-api-settlement');

/**
 * Cash-ins, a batch at a time, validated by the transport (ADR 16) → settlement. Not an HTTP
 * route: @Public only keeps the API's token guard, which reads HTTP requests, out of the way.
 */
@Public()
@Controller()
@UseFilters(PassHandlerErrors)
export class SettlementConsumer {
  constructor(private readonly settle: SettleCashIn) {}

  @EventPattern(CASH_IN_TOPIC, SETTLEMENT_TRANSPORT)
  onCashIns(@Payload() batch: PixRecebidoMessage[], @Ctx() context: KafkaBatchContext): Promise<void> {
    // Settlement lines name the publisher's correlation id (the x-correlation-id header, ADR 17).
    return this.settle.handleBatch(batch, context.getTraces());
  }
}
