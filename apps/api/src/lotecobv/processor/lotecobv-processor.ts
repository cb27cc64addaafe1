import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from 'pg';
import { lotecobvKeyOfStream, type Recebedor } from '@pix/domain';
import type { EventStore } from '@pix/event-store';
import { loteKeyOf, pendingSolicitacoes, solicitacaoLoteProjection, type SolicitacaoLoteRow } from '@pix/read-models';
import type { AppConfig } from '../../config/config';
import type { Projections } from '../../infrastructure/projections';
import { CLOCK, CONFIG, EVENT_STORE, LOCATION_IDS, PROJECTIONS, READ_DB, RECEIVER_DIRECTORY } from '../../infrastructure/tokens';
import { FailureStreak } from '@pix/observability';
import { mapWithConcurrency } from '../../shared/map-with-concurrency';
import type { Clock, LocationIds, ReceiverDirectory } from '../../shared/ports';
import { confirmClaim } from '../../loc/claimed-location';
import { LocWriter } from '../../loc/loc-writer';
import { referencedLocation } from '../../loc/referenced-location';
import { LoteCobVWriter } from '../lotecobv-writer';
import { BatchProgressLog } from './batch-progress-log';
import { decideSolicitacao, recordDecisions, type ProcessorDeps } from './decide-solicitacao';

/** Requests taken from each batch per round: every batch with work advances every round. */
const PER_BATCH = 100;
/** Requests per round, in all: a batch sent while many are pending waits for one round this size, not for all of them. */
const PER_ROUND = 1000;

/**
 * The batch process manager. Its work list is the requests read model (built from the event
 * store's subscription, checkpointed): every request EM_PROCESSAMENTO is decided, batches in
 * turn so a huge batch never starves a small one. A crash loses nothing: on restart the pending
 * requests are still pending, and deciding one again appends nothing new.
 *
 * Each request is decided for its batch's receiver (named by the batch's stream) as the
 * directory knows it at that moment, like PUT /cobv at the moment of the request: a charge is
 * created with the receiver's current name and address and only on a key that is still its own.
 */
@Injectable()
export class LoteCobVProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('LoteCobV');
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  /** Set when new work arrives while busy, so the next idle does not sleep through it. */
  private woken = false;
  private unsubscribe?: () => void;
  private readonly deps: ProcessorDeps;
  private readonly progress: BatchProgressLog;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly db: Pool,
    @Inject(PROJECTIONS) private readonly projections: Projections,
    @Inject(CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) clock: Clock,
    @Inject(LOCATION_IDS) locations: LocationIds,
    @Inject(RECEIVER_DIRECTORY) private readonly directory: ReceiverDirectory,
    locs: LocWriter,
    writer: LoteCobVWriter,
  ) {
    this.deps = {
      store,
      batchSnapshots: writer.snapshots,
      clock,
      locations: {
        next: () => locations.next(),
        read: (recebedorId, id) => locs.read(recebedorId, id),
        claim: (recebedorId, id, txid) => locs.claim(recebedorId, id, txid),
        referenced: (recebedorId, id, usable) => referencedLocation(db, recebedorId, id, usable),
        confirm: async (recebedorId, txid, locId, charge) => {
          if (charge.exists) await confirmClaim(locs, recebedorId, charge);
          if (!charge.exists || charge.loc?.id !== locId) await locs.releaseUnheld(recebedorId, locId, txid);
        },
      },
    };
    this.progress = new BatchProgressLog(db, this.logger);
  }

  onApplicationBootstrap(): void {
    this.running = true;
    // New work shows up when the requests read model moves (inline: as the batch is appended).
    this.unsubscribe = this.projections.onAdvance(
      solicitacaoLoteProjection.name,
      () => {
        this.woken = true;
        this.wake?.();
      },
      (streamId) => lotecobvKeyOfStream(streamId) !== undefined,
    );
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    // A database outage fails a round a second: its first failure (with the stack), then the count once a minute.
    const failures = new FailureStreak('batch processing');
    let first = true;
    while (this.running) {
      try {
        this.woken = false;
        const pending = await pendingSolicitacoes(this.db, PER_BATCH, PER_ROUND);
        const resumed = failures.succeeded();
        if (resumed) this.logger.log(resumed);
        first = true;
        if (pending.length === 0) {
          await this.idle(1000);
          continue;
        }
        const receivers = await this.receiversOf(pending);
        const decisions = await mapWithConcurrency(pending, this.config.loteConcurrency, (item) => decideSolicitacao(this.deps, receivers.get(item.recebedorId), item));
        const byBatch = new Map<string, { lote: SolicitacaoLoteRow; events: typeof decisions }>();
        pending.forEach((item, i) => {
          const key = loteKeyOf(item);
          if (!byBatch.has(key)) byBatch.set(key, { lote: item, events: [] });
          byBatch.get(key)!.events.push(decisions[i]);
        });
        const positions = (await Promise.all([...byBatch.values()].map(({ lote, events }) => recordDecisions(this.deps, lote, events)))).filter((p) => p !== undefined);
        // Next round only once these decisions are in the work list, so none is taken twice.
        const last = positions.reduce<string | undefined>((a, b) => (a === undefined || this.store.comparePositions(b, a) > 0 ? b : a), undefined);
        if (last !== undefined) await this.projections.waitFor([solicitacaoLoteProjection.name], last, 30_000);
        await this.progress.report(pending);
      } catch (error) {
        const line = failures.failed(error instanceof Error ? (first ? String(error.stack) : error.message) : String(error));
        first = false;
        if (line) this.logger.error(line);
        await this.idle(1000);
      }
    }
  }

  /** Each receiver with work this round, looked up once. */
  private async receiversOf(pending: SolicitacaoLoteRow[]): Promise<Map<string, Recebedor | undefined>> {
    const ids = [...new Set(pending.map((p) => p.recebedorId))];
    return new Map(await Promise.all(ids.map(async (id) => [id, await this.directory.recebedor(id)] as const)));
  }

  private idle(ms: number): Promise<void> {
    if (this.woken || !this.running) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
