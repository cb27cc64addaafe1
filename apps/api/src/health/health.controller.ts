import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Pool } from 'pg';
import { isDraining } from '@pix/http-edge';
import type { EventStore } from '@pix/event-store';
import { countSolicitacoesEmProcessamento } from '@pix/read-models';
import { Public } from '../auth/auth-context';
import type { Projections } from '../infrastructure/projections';
import { CLOCK, CONFIG, PROJECTIONS, EVENT_STORE, READ_DB, READINESS } from '../infrastructure/tokens';
import type { AppConfig } from '../config/config';
import { projectionLags } from '../metrics/projection-lag';
import type { Clock } from '../shared/ports';
import type { Readiness } from './readiness';

/** A probe never waits longer than this for the database. */
const PROBE_TIMEOUT_MS = 2000;

/**
 * Probes, open without a token. `live`: the process answers (restart it if not). `ready` (and
 * `/health`, its alias): the database answers, so writes can be served, and the Kafka cluster
 * answers when one is configured (settlement needs it); 503 while either does not. Kafka
 * consumers join in the background and are reported, not waited for. 503 once a shutdown has
 * begun (SHUTDOWN_DELAY), while every other request is still served. Plus what an
 * operator wants first: where each read model is, batch work pending (counts only).
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
      readiness.check('projectionLag', async () => {
        const lags = await projectionLags(store, projections.checkpoints(), clock.now());
        const behind = Object.entries(lags).filter(([, lag]) => lag.seconds > bound);
        return behind.length > 0 ? `${behind.map(([name]) => name).join(', ')} more than ${bound} s behind` : undefined;
      }, 'behind');
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
    const dependencies = await this.readiness.dependencies();
    const common = { eventStore: this.store.name, projections: this.projections.checkpoints(), ...this.readiness.snapshot(), ...dependencies.states };
    try {
      const pending = await withTimeout(countSolicitacoesEmProcessamento(this.db), PROBE_TIMEOUT_MS);
      if (!dependencies.up) {
        void reply.status(503).header('retry-after', '2');
        return { status: 'unavailable', database: 'up', ...common };
      }
      return { status: 'ok', database: 'up', ...common, lotecobv: { solicitacoesEmProcessamento: pending } };
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

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the database within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
