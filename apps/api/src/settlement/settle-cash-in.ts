import { Inject, Injectable, Logger } from '@nestjs/common';
import type { PixRecebidoMessage } from '@pix/contracts';
import { cobvDecider, pixDecider, type PixRecebido } from '@pix/domain';
import { handleCommand, type EventStore } from '@pix/event-store';
import { cobvProjection, pixProjection } from '@pix/read-models';
import type { Projections } from '../infrastructure/projections';
import { CLOCK, EVENT_STORE, PROJECTIONS, RECEIVER_DIRECTORY } from '../infrastructure/tokens';
import type { Clock, ReceiverDirectory } from '../shared/ports';
import { cobvStream, pixStream } from '../shared/streams';

/**
 * The API's consumer of cash-ins: records the Pix (stream `pix-{e2eid}`, once per endToEndId) for
 * the receiver that owns its key, and concludes that receiver's charge `cobv-{recebedorId}/{txid}`.
 * Both steps are idempotent, so a redelivered message changes nothing and a crash between them is
 * repaired by the redelivery. A Pix to a key nobody here owns is recorded without a receiver
 * (shown to nobody) and settles nothing.
 */
@Injectable()
export class SettleCashIn {
  private readonly logger = new Logger('Settlement');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTIONS) private readonly projections: Projections,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RECEIVER_DIRECTORY) private readonly directory: ReceiverDirectory,
  ) {}

  async handle(message: PixRecebidoMessage): Promise<void> {
    const { versao: _v, ...fields } = message;
    const pix: PixRecebido = fields;
    const owner = (await this.directory.ownerOfChave(pix.chave)) ?? null;
    const recorded = await handleCommand(this.store, pixStream(pix.endToEndId), pixDecider, () => ({ type: 'RegistrarPix' as const, pix, recebedorId: owner, now: this.clock.now() }));
    // The receiver the Pix was first recorded for, so a redelivery settles the same charge.
    const recebedorId = recorded.state.exists ? recorded.state.recebedorId : null;
    let last = recorded.position;
    if (!recebedorId) this.logger.warn(`Pix ${pix.endToEndId} to key ${pix.chave}, which no receiver here owns: recorded, not settled`);
    else if (pix.txid) {
      const settled = await handleCommand(this.store, cobvStream(recebedorId, pix.txid), cobvDecider, () => ({ type: 'RegistrarPagamentoCobV' as const, txid: pix.txid!, pix, now: this.clock.now() }));
      if (settled.position) {
        last = settled.position;
        this.logger.log(`cobv ${recebedorId}/${pix.txid} CONCLUIDA by Pix ${pix.endToEndId} (${pix.valor})`);
      }
    }
    if (last) await this.projections.waitFor([pixProjection.name, cobvProjection.name], last);
  }
}
