import { Inject, Injectable, Logger } from '@nestjs/common';
import { LOTECOBV_SNAPSHOT, lotecobvDecider, tenantKey, type LoteCobVCommand, type LoteCobVState } from '@pix/domain';
import { handleCommand, type EventStore, type SnapshotStore, type Snapshotting } from '@pix/event-store';
import { lotecobvProjection, solicitacaoLoteProjection } from '@pix/read-models';
import type { Projections } from '../infrastructure/projections';
import { CLOCK, EVENT_STORE, PROJECTIONS, SNAPSHOTS } from '../infrastructure/tokens';
import { KeyedMutex } from '../shared/keyed-mutex';
import type { Clock } from '../shared/ports';
import { lotecobvStream } from '../shared/streams';

/**
 * Runs a batch command and returns once the batch and its requests are in the read models: the
 * 202 means "accepted and visible", so a PUT /cobv right after it sees the reservation.
 */
@Injectable()
export class LoteCobVWriter {
  private readonly logger = new Logger('LoteCobVWriter');
  private readonly mutex = new KeyedMutex();
  readonly snapshots: Snapshotting<LoteCobVState>;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTIONS) private readonly projections: Projections,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SNAPSHOTS) snapshots: SnapshotStore,
  ) {
    this.snapshots = batchSnapshots(snapshots);
  }

  /** On the receiver's own batch `lotecobv-{recebedorId}/{id}`. */
  execute(recebedorId: string, id: string, build: (state: LoteCobVState, now: Date) => Promise<LoteCobVCommand> | LoteCobVCommand): Promise<void> {
    const key = tenantKey(recebedorId, id);
    return this.mutex.run(key, async () => {
      const { position } = await handleCommand(this.store, lotecobvStream(recebedorId, id), lotecobvDecider, (s) => build(s, this.clock.now()), { snapshots: this.snapshots });
      if (position && !(await this.projections.waitFor([lotecobvProjection.name, solicitacaoLoteProjection.name], position)))
        this.logger.warn(`read models of lotecobv ${key} not caught up after 5 s; the batch is stored and will be processed`);
    });
  }
}

/** A batch's stream is snapshotted (ADR 6): its commands fold the snapshot and what came after. */
export const batchSnapshots = (store: SnapshotStore): Snapshotting<LoteCobVState> => ({ store, ...LOTECOBV_SNAPSHOT });
