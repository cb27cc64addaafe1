import { Controller, Get, Inject } from '@nestjs/common';
import type { Pool } from 'pg';
import type { EventStore } from '@pix/event-store';
import type { Projections } from '../infrastructure/projections';
import { PROJECTIONS, EVENT_STORE, READ_DB } from '../infrastructure/tokens';

/** Liveness plus what an operator wants first: the database answers, where each read model is, batch work pending. */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(READ_DB) private readonly db: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTIONS) private readonly projections: Projections,
  ) {}

  @Get()
  async health() {
    const pending = await this.db.query<{ n: string }>(`SELECT count(*) AS n FROM rm_lotecobv_solicitacao WHERE status = 'EM_PROCESSAMENTO'`);
    return {
      status: 'ok',
      eventStore: this.store.name,
      projections: this.projections.checkpoints(),
      lotecobv: { solicitacoesEmProcessamento: Number(pending.rows[0].n) },
    };
  }
}
