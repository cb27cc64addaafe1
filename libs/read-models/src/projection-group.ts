import { subscribeToAll, type EventStore, type GlobalPosition, type Subscription } from '@pix/event-store';
import type { ProjectionRunner, RunnerLogger } from './projection-runner';

/**
 * Several read models fed by ONE catch-up subscription: each page is read once and offered to
 * every runner in turn (each keeps its own checkpoint, lock and transaction). Starts from the
 * oldest checkpoint; runners skip what they already have.
 */
export class ProjectionGroup {
  private subscription?: Subscription;

  constructor(
    private readonly store: EventStore,
    private readonly runners: ProjectionRunner<unknown>[],
    private readonly logger?: RunnerLogger,
  ) {}

  async start(): Promise<void> {
    const checkpoints = [];
    for (const runner of this.runners) checkpoints.push(await runner.prepare());
    const after = checkpoints.includes(undefined) ? undefined : checkpoints.reduce((a, b) => (this.store.comparePositions(a!, b!) <= 0 ? a : b));
    this.subscription = subscribeToAll(this.store, {
      after,
      batchSize: 500,
      handle: async (events) => {
        let reached: GlobalPosition | undefined;
        for (const runner of this.runners) {
          const position = await runner.handle(events);
          if (!reached || this.store.comparePositions(position, reached) < 0) reached = position;
        }
        return reached;
      },
      onError: (error) => this.logger?.error('a projection failed to apply a batch; retrying', error),
      pollWhile: () => this.runners.some((r) => r.hasWaiters),
    });
    for (const runner of this.runners) runner.attach(this.subscription);
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    await Promise.all(this.runners.map((r) => r.stop()));
  }
}
