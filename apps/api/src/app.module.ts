import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { AuthGuard } from './auth/auth.guard';
import { CobVModule } from './cobv/cobv.module';
import { HealthController } from './health/health.controller';
import { LoteCobVModule } from './lotecobv/lotecobv.module';
import { CashInModule } from './messaging/cash-in.module';
import { WebhookModule } from './webhook/webhook.module';
import { InfrastructureModule, type InfrastructureOptions } from './infrastructure/infrastructure.module';

@Module({})
export class AppModule {
  static forRoot(options: InfrastructureOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [CqrsModule.forRoot(), InfrastructureModule.forRoot(options), CobVModule, LoteCobVModule, WebhookModule, CashInModule.forRoot(options.config.mode === 'local')],
      controllers: [HealthController],
      providers: [{ provide: APP_GUARD, useClass: AuthGuard }],
    };
  }
}
