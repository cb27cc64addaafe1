import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError, WEBHOOK_SNAPSHOT, webhookDecider, type WebhookCommand, type WebhookState } from '@pix/domain';
import { aggregateStream, handleCommand, type EventStore, type SnapshotStore, type Snapshotting } from '@pix/event-store';
import { webhookProjection } from '@pix/read-models';
import type { Projections } from '../infrastructure/projections';
import { CLOCK, EVENT_STORE, PROJECTIONS, SNAPSHOTS } from '../infrastructure/tokens';
import type { Clock } from '../shared/ports';
import { webhookStream } from '../shared/streams';

/**
 * Runs a webhook command on the stream `webhook-{chave}`. Deliveries read that stream directly,
 * so a registration counts for every cash-in after the append, whatever the read model's lag.
 */
@Injectable()
export class WebhookWriter {
  private readonly logger = new Logger('WebhookWriter');
  private readonly snapshots: Snapshotting<WebhookState>;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTIONS) private readonly projections: Projections,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SNAPSHOTS) snapshots: SnapshotStore,
  ) {
    this.snapshots = { store: snapshots, ...WEBHOOK_SNAPSHOT };
  }

  async execute(chave: string, build: (now: Date) => WebhookCommand): Promise<WebhookState> {
    const { state, position } = await handleCommand(this.store, webhookStream(chave), webhookDecider, () => build(this.clock.now()), { snapshots: this.snapshots });
    if (position && !(await this.projections.waitFor([webhookProjection.name], position))) this.logger.warn(`webhook list not caught up for ${chave} after 5 s`);
    return state;
  }

  /** The registration as it is now, from the stream itself. */
  async current(chave: string): Promise<WebhookState> {
    return (await aggregateStream(this.store, webhookStream(chave), webhookDecider, this.snapshots)).state;
  }
}

/** The official `WebhookCompleto` (with `chave`, per the standing reading), or 404. */
export function toWebhookCompleto(state: WebhookState) {
  if (!state.exists) throw new DomainError('WebhookNaoEncontrado', 'Não há webhook configurado para esta chave.');
  return { webhookUrl: state.webhookUrl, chave: state.chave, criacao: state.criacao };
}
