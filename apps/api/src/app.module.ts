import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { AccessModule } from './access/access.module';
import { AuthGuard } from './auth/auth.guard';
import { CobVModule } from './cobv/cobv.module';
import { LocModule } from './loc/loc.module';
import { HealthController } from './health/health.controller';
import { RateLimitGuard, RateLimits } from './http/rate-limit';
import { LoteCobVModule } from './lotecobv/lotecobv.module';
import { CashInModule } from './messaging/cash-in.module';
import { PayloadModule } from './payload/payload.module';
import { SandboxDashboardModule } from './sandbox/sandbox-dashboard.module';
import { WebhookModule } from './webhook/webhook.module';
import { InfrastructureModule, type InfrastructureOptions } from './infrastructure/infrastructure.module';

@Module({})
export class AppModule {
  static forRoot(options: InfrastructureOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [CqrsModule.forRoot(), InfrastructureModule.forRoot(options), AccessModule, CobVModule, LocModule, LoteCobVModule, WebhookModule, PayloadModule, CashInModule.forRoot(options.config.mode === 'local'), ...(options.config.mode === 'local' ? [SandboxDashboardModule] : [])],
      controllers: [HealthController],
      // Guards run in this order: the rate limit needs the client the auth guard established. The
      // auth guard is also a provider of its own: the hook that admits before the body uses it.
      providers: [AuthGuard, { provide: APP_GUARD, useExisting: AuthGuard }, RateLimits, { provide: APP_GUARD, useClass: RateLimitGuard }],
    };
  }
}
