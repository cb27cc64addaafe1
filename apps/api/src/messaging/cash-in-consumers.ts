import type { INestApplication } from '@nestjs/common';
import type { MicroserviceOptions } from '@nestjs/microservices';
import { CashInWiring } from './cash-in-wiring';

/**
 * Connects this process's cash-in consumer groups (KAFKA_BROKERS set) as Nest microservices on
 * the batch transport, so their @EventPattern handlers are registered; the wiring starts them
 * when the application has bootstrapped. Without KAFKA_BROKERS there are none.
 */
export function connectCashInConsumers(app: INestApplication): void {
  for (const strategy of app.get(CashInWiring).servers) app.connectMicroservice<MicroserviceOptions>({ strategy });
}
