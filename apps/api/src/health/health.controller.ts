import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Pool } from 'pg';
import { isDraining } from '@pix/http-edge';
import type { EventStore } from '@pix/event-store';
import { Public } from '../auth/auth-context';
import type { Projections } from '../infrastructure/projections';
import { CLOCK, CONFIG, PROJECTIONS, EVENT_STORE, READ_DB, READINESS } from '../infrastructure/tokens';
import type { AppConfig } from '../config/config';
import { projectionLags } from '../metrics/projection-lag';
import type { Clock } from '../shared/ports';
import { probeDatabase } from './database-probe';
import type { Readiness } from './readiness';

/**
 * Probes, open without a token. `live`: the process answers (restart it if not). `ready` (and
 * `/health`, its alias): this instance can serve HTTP, which the database decides; 503 while it
 * does not answer. Kafka (the cluster, each consumer group) is reported, never decides: while it
 * is away or a group is stuck joining the answer is 200 with status `degraded`, since only
 * settlement, a background consumer, waits for it (a Kafka blip took every instance out of the
 * load balancer while writes were answered in 15 ms: an audit, 2026-11-27). 503 once a shutdown
 * has begun (SHUTDOWN_DELAY), while every other request is still served. Plus what an operator
 * wants first: where each read model is, batch work pending (counts only).
 */
@Public()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(READ_DB) private readonly db: Pool,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTIONS) private readonly projections: Projections,
    @Inject(READINESS) private readonly readiness: Readiness,
    @Inject(CONFIG) config: AppConfig,
    @Inject(CLOCK) clock: Clock,
  ) {
    // Inline read models (PostgreSQL, ADR 14) never lag; asynchronous ones (EventStoreDB) may.
    const bound = config.readyMaxProjectionLagSeconds;
    if (bound > 0)
      readiness.check(
        'projectionLag',
        async () => {
          const lags = await projectionLags(store, projections.checkpoints(), clock.now());
          const behind = Object.entries(lags).filter(([, lag]) => lag.seconds > bound);
          return behind.length > 0 ? `${behind.map(([name]) => name).join(', ')} more than ${bound} s behind` : undefined;
        },
        { failedAs: 'behind' },
      );
  }

  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Get()
  health(@Res({ passthrough: true }) reply: FastifyReply) {
    return this.ready(reply);
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    if (isDraining(reply)) return shuttingDown(reply);
    const reading = await this.readiness.read();
    const common = { eventStore: this.store.name, projections: this.projections.checkpoints(), ...reading.states };
    try {
      const pending = await probeDatabase(this.db);
      if (!reading.up) {
        void reply.status(503).header('retry-after', '2');
        return { status: 'unavailable', database: 'up', ...common };
      }
      return { status: reading.degraded ? 'degraded' : 'ok', database: 'up', ...common, lotecobv: { solicitacoesEmProcessamento: pending } };
    } catch {
      // No error text: this endpoint is open, and the message would name internal addresses.
      void reply.status(503).header('retry-after', '2');
      return { status: 'unavailable', database: 'unreachable', ...common };
    }
  }
}

/** No Retry-After: this instance will not be back; the load balancer should route elsewhere. */
function shuttingDown(reply: FastifyReply) {
  void reply.status(503);
  return { status: 'shutting down' };
}
