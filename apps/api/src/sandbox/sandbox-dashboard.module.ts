import { Module } from '@nestjs/common';
import { SandboxDashboardController } from './sandbox-dashboard.controller';

/** The local-mode dashboard (ADR 13); AppModule imports it only in local mode. */
@Module({ controllers: [SandboxDashboardController] })
export class SandboxDashboardModule {}
