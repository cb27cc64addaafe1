import { Controller, Get, Inject } from '@nestjs/common';
import type { Pool } from 'pg';
import type { EventStore } from '@pix/event-store';
import { countSolicitacoesEmProcessamento } from '@pix/read-models';
import { Public } from '../auth/auth-context';
import type { Projections } from '../infrastructure/projections';
import { PROJECTIONS, EVENT_STORE, READ_DB } from '../infrastructure/tokens';

/**
 * Liveness plus what an operator wants first: the database answers, where each read model is,
 * batch work pending (over every receiver: counts only, no tenant data). Open without a token.
 */
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(READ_DB) private readonly db: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTIONS) private readonly projections: Projections,
  ) {}

  @Get()
  async health() {
    return {
      status: 'ok',
      eventStore: this.store.name,
      projections: this.projections.checkpoints(),
      lotecobv: { solicitacoesEmProcessamento: await countSolicitacoesEmProcessamento(this.db) },
    };
  }
}
