import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import type { EventStore, GlobalPosition } from '@pix/event-store';
import {
  cobvProjection,
  INLINE_CHECKPOINT,
  inlineOn,
  locProjection,
  lotecobvProjection,
  pixProjection,
  ProjectionGroup,
  ProjectionRunner,
  solicitacaoLoteProjection,
  webhookProjection,
  type Projection,
} from '@pix/read-models';

/** The read models the API keeps live (and whose tables its start-up migration creates). */
export const LIVE_PROJECTIONS: Projection<any>[] = [cobvProjection, lotecobvProjection, solicitacaoLoteProjection, pixProjection, webhookProjection, locProjection];

/**
 * The live read models of this process. Those the store writes inline (PostgreSQL, ADR 14) are
 * current when an append returns; the others follow one catch-up subscription, and a writer
 * waits for them (read-your-writes).
 */
export class Projections {
  private readonly runners = new Map<string, ProjectionRunner<unknown>>();
  private readonly inline: Set<string>;
  private readonly group: ProjectionGroup;

  constructor(
    private readonly store: EventStore,
    pool: Pool,
    projections: Projection<any>[] = LIVE_PROJECTIONS,
  ) {
    const logger = new Logger('Projection');
    const log = { log: (m: string) => logger.log(m), error: (m: string, e: unknown) => logger.error(`${m}: ${e instanceof Error ? e.stack : String(e)}`) };
    this.inline = new Set(inlineOn(store, projections).map((p) => p.name));
    for (const p of projections) if (!this.inline.has(p.name)) this.runners.set(p.name, new ProjectionRunner(store, pool, p, log));
    // One reader of the event store for all of them.
    this.group = new ProjectionGroup(store, [...this.runners.values()], log);
  }

  /** The projections this store writes in the append's transaction. */
  get inlineNames(): string[] {
    return [...this.inline];
  }

  start(): Promise<void> {
    return this.runners.size > 0 ? this.group.start() : Promise.resolve();
  }

  stop(): Promise<void> {
    return this.group.stop();
  }

  /** True once every named read model includes the event at `position` (read-your-writes). */
  async waitFor(names: string[], position: GlobalPosition, timeoutMs = 5000): Promise<boolean> {
    const results = await Promise.all(names.filter((n) => !this.inline.has(n)).map((n) => this.runner(n).waitFor(position, timeoutMs)));
    return results.every(Boolean);
  }

  /**
   * Called when the read model may have moved: after each applied page, or, when it is inline,
   * after an append that may touch it. `follows` names the streams whose appends can move it
   * (others' are skipped: a wake-up per PUT was a statement per PUT); appends of other processes
   * always call.
   */
  onAdvance(name: string, listener: () => void, follows: (streamId: string) => boolean = () => true): () => void {
    if (!this.inline.has(name)) return this.runner(name).onAdvance(listener);
    return this.store.onAppended((streamId) => {
      if (streamId === undefined || follows(streamId)) listener();
    });
  }

  checkpoints(): Record<string, string | null> {
    const inline = [...this.inline].map((name) => [name, INLINE_CHECKPOINT] as const);
    return Object.fromEntries([...inline, ...[...this.runners].map(([name, r]) => [name, r.checkpoint ?? null] as const)]);
  }

  private runner(name: string): ProjectionRunner<unknown> {
    const runner = this.runners.get(name);
    if (!runner) throw new Error(`No projection named ${name}`);
    return runner;
  }
}
