import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { CashInTrace, PixRecebidoMessage } from '@pix/contracts';
import { withCorrelationId } from '@pix/observability';
import { canonicalJson, cobvDecider, pixDecider, type PixRecebido } from '@pix/domain';
import { handleCommand, type EventStore } from '@pix/event-store';
import { cobvProjection, pixProjection } from '@pix/read-models';
import type { Projections } from '../infrastructure/projections';
import { CLOCK, EVENT_STORE, PROJECTIONS, RECEIVER_DIRECTORY } from '../infrastructure/tokens';
import type { Clock, ReceiverDirectory } from '../shared/ports';
import { cobvStream, pixStream } from '../shared/streams';
import { UnownedCashIns } from './unowned-cash-ins';
import { UnsettledCashIns } from './unsettled-cash-ins';

/** Charges settled at once within a batch: each lane holds at most one pool connection at a time. */
const SETTLEMENT_LANES = 16;

/**
 * The API's consumer of cash-ins: records the Pix (stream `pix-{e2eid}`, once per endToEndId) for
 * the receiver that owns its key, and concludes that receiver's charge `cobv-{recebedorId}/{txid}`.
 * Both steps are idempotent, so a redelivered message changes nothing and a crash between them is
 * repaired by the redelivery. A Pix to a key nobody here owns is recorded without a receiver
 * (shown to nobody) and settles nothing: counted and summed up in the log (UnownedCashIns).
 */
@Injectable()
export class SettleCashIn implements OnModuleDestroy {
  private readonly logger = new Logger('Settlement');
  readonly unowned = new UnownedCashIns(this.logger);
  readonly unsettled = new UnsettledCashIns(this.logger);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTIONS) private readonly projections: Projections,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RECEIVER_DIRECTORY) private readonly directory: ReceiverDirectory,
  ) {}

  /**
   * A batch from the transport: cash-ins of different charges (by txid; those without one each on
   * their own) settle concurrently, at most SETTLEMENT_LANES at a time; those of one charge one
   * after another in the batch's order. A copy of an endToEndId seen earlier in the batch joins
   * that copy's queue, whatever its txid, so the first copy is recorded first, as the notifier
   * keeps it (ADR 7; until 2026-11-27 a second copy naming another charge could start on another
   * lane and win: the charge it settled was never notified). Every lane runs to its end or its
   * first failure before a failure is reported, so a retry of the whole batch never overlaps this
   * attempt; what was done is done again as nothing (idempotent by endToEndId).
   */
  async handleBatch(batch: PixRecebidoMessage[], traces: readonly (CashInTrace | undefined)[] = []): Promise<void> {
    type Queue = [PixRecebidoMessage, string | undefined][];
    const byCharge = new Map<string, Queue>();
    const byEndToEndId = new Map<string, Queue>();
    batch.forEach((m, i) => {
      const charge = m.txid ? `txid ${m.txid}` : `e2e ${m.endToEndId}`;
      let queue = byEndToEndId.get(m.endToEndId) ?? byCharge.get(charge);
      if (!queue) byCharge.set(charge, (queue = []));
      queue.push([m, traces[i]?.correlationId]);
      byEndToEndId.set(m.endToEndId, queue);
    });
    const queues = [...byCharge.values()];
    let next = 0;
    const failures: unknown[] = [];
    const lane = async () => {
      while (next < queues.length && failures.length === 0) {
        const queue = queues[next++];
        try {
          for (const [m, correlationId] of queue) await this.handle(m, correlationId);
        } catch (error) {
          failures.push(error);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(SETTLEMENT_LANES, queues.length) }, lane));
    if (failures.length > 0) throw failures[0];
  }

  /** `correlationId`: the request that published the cash-in, if any, named on the lines logged here. */
  async handle(message: PixRecebidoMessage, correlationId?: string): Promise<void> {
    const { versao: _v, ...fields } = message;
    const pix: PixRecebido = fields;
    // The key's holder when it was paid: a cash-in read after the key moved is its former holder's (ADR 9).
    const owner = (await this.directory.ownerOfChave(pix.chave, new Date(pix.horario))) ?? null;
    // A Pix is new but on a redelivery: decided as new without reading, and read only if the append finds it there.
    const recorded = await handleCommand(
      this.store,
      pixStream(pix.endToEndId),
      pixDecider,
      () => ({ type: 'RegistrarPix' as const, pix, recebedorId: owner, now: this.clock.now() }),
      { assumeNew: { conditions: [] } },
    );
    // The Pix as first recorded, and its receiver: a redelivery settles the same charge, and a
    // message that reuses the endToEndId with other content (another txid, another amount)
    // settles nothing of its own: one Pix per endToEndId (ADR 7).
    if (!recorded.state.exists) throw new Error(`Pix ${pix.endToEndId}: not recorded`);
    const { pix: first, recebedorId } = recorded.state;
    // Only a Pix found already recorded can differ: one recorded now is this message.
    if (!recorded.position && canonicalJson(first) !== canonicalJson(pix))
      withCorrelationId(correlationId, () =>
        this.logger.error(`Pix ${pix.endToEndId} arrived again with other content (txid ${pix.txid ?? '-'}, valor ${pix.valor}, key ${pix.chave}); ignored: the first one recorded stands (txid ${first.txid ?? '-'}, valor ${first.valor})`),
      );
    let last = recorded.position;
    // Counted when recorded, so a redelivery is not counted twice.
    if (!recebedorId) {
      if (recorded.position) this.unowned.record(first.endToEndId, first.chave, correlationId);
    }
    else if (first.txid) {
      const txid = first.txid;
      const settled = await handleCommand(this.store, cobvStream(recebedorId, txid), cobvDecider, () => ({ type: 'RegistrarPagamentoCobV' as const, txid, pix: first, now: this.clock.now() }));
      if (settled.position) {
        last = settled.position;
        withCorrelationId(correlationId, () => this.logger.log(`cobv ${recebedorId}/${txid} CONCLUIDA by Pix ${first.endToEndId} (${first.valor})`));
      } else if (recorded.position) this.unsettled.record(recebedorId, first, settled.state, correlationId); // a new Pix only: a redelivery is not counted again
    }
    if (last) await this.projections.waitFor([pixProjection.name, cobvProjection.name], last);
  }

  onModuleDestroy(): void {
    this.unowned.close();
  }
}
