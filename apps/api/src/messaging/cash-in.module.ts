import { Module, type DynamicModule } from '@nestjs/common';
import { CASH_IN_PUBLISHER } from '../infrastructure/tokens';
import { GetPixHandler } from '../pix/get-pix/get-pix.handler';
import { ListPixHandler } from '../pix/list-pix/list-pix.handler';
import { PixController } from '../pix/pix.controller';
import { SandboxCashInController } from '../sandbox/sandbox-cash-in.controller';
import { SettleCashIn } from '../settlement/settle-cash-in';
import { SettlementConsumer } from '../settlement/settlement.consumer';
import { NOTIFICATION_OUTBOX, NOTIFIER_CORE } from '@pix/messaging';
import { CashInWiring } from './cash-in-wiring';
import { LocalIntakeController } from './local-intake.controller';
import { LocalNotificationsController } from './local-notifications.controller';

/**
 * Received Pix: the Pix endpoints, settlement (a Kafka consumer when KAFKA_BROKERS is set), and,
 * in local mode, the sandbox payer and the notifier.
 */
@Module({})
export class CashInModule {
  static forRoot(local: boolean): DynamicModule {
    return {
      module: CashInModule,
      controllers: [PixController, SettlementConsumer, ...(local ? [SandboxCashInController, LocalNotificationsController, LocalIntakeController] : [])],
      providers: [
        SettleCashIn,
        CashInWiring,
        GetPixHandler,
        ListPixHandler,
        { provide: CASH_IN_PUBLISHER, useExisting: CashInWiring },
        // The controllers ask the wiring lazily: the notifier starts with the application.
        { provide: NOTIFICATION_OUTBOX, inject: [CashInWiring], useFactory: (w: CashInWiring) => w.outbox },
        { provide: NOTIFIER_CORE, inject: [CashInWiring], useFactory: (w: CashInWiring) => w.intake },
      ],
    };
  }
}
