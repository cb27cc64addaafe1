import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import type { EventStore, GlobalPosition } from '@pix/event-store';
import { cobvProjection, locProjection, lotecobvProjection, pixProjection, ProjectionGroup, ProjectionRunner, solicitacaoLoteProjection, webhookProjection, type Projection } from '@pix/read-models';

/** The read models the API keeps live (and whose tables its start-up migration creates). */
export const LIVE_PROJECTIONS: Projection<any>[] = [cobvProjection, lotecobvProjection, solicitacaoLoteProjection, pixProjection, webhookProjection, locProjection];

/** The live read models of this process and a way to wait until they include a write. */
export class Projections {
  private readonly runners = new Map<string, ProjectionRunner<unknown>>();
  private readonly group: ProjectionGroup;

  constructor(store: EventStore, pool: Pool, projections: Projection<any>[] = LIVE_PROJECTIONS) {
    const logger = new Logger('Projection');
    for (const p of projections)
      this.runners.set(
        p.name,
        new ProjectionRunner(store, pool, p, {
          log: (m) => logger.log(m),
          error: (m, e) => logger.error(`${m}: ${e instanceof Error ? e.stack : String(e)}`),
        }),
      );
    // One reader of the event store for all of them.
    this.group = new ProjectionGroup(store, [...this.runners.values()], {
      log: (m) => logger.log(m),
      error: (m, e) => logger.error(`${m}: ${e instanceof Error ? e.stack : String(e)}`),
    });
  }

  get(name: string): ProjectionRunner<unknown> {
    const runner = this.runners.get(name);
    if (!runner) throw new Error(`No projection named ${name}`);
    return runner;
  }

  start(): Promise<void> {
    return this.group.start();
  }

  stop(): Promise<void> {
    return this.group.stop();
  }

  /** True once every named read model includes the event at `position` (read-your-writes). */
  async waitFor(names: string[], position: GlobalPosition, timeoutMs = 5000): Promise<boolean> {
    const results = await Promise.all(names.map((n) => this.get(n).waitFor(position, timeoutMs)));
    return results.every(Boolean);
  }

  checkpoints(): Record<string, string | null> {
    return Object.fromEntries([...this.runners].map(([name, r]) => [name, r.checkpoint ?? null]));
  }
}
