import { Inject, Injectable, Logger } from '@nestjs/common';
import type { PixRecebidoMessage } from '@pix/contracts';
import { cobvDecider, cobvStreamId, pixDecider, pixStreamId, type PixRecebido } from '@pix/domain';
import type { EventStore } from '@pix/event-store';
import { cobvProjection, pixProjection } from '@pix/read-models';
import type { Projections } from '../infrastructure/projections';
import { CLOCK, EVENT_STORE, PROJECTIONS } from '../infrastructure/tokens';
import { executeOnStream } from '../shared/execute-command';
import type { Clock } from '../shared/ports';

/**
 * The API's consumer of cash-ins: records the Pix (stream `pix-{e2eid}`, once per endToEndId) and
 * concludes its charge. Both steps are idempotent, so a redelivered message changes nothing and a
 * crash between them is repaired by the redelivery.
 */
@Injectable()
export class SettleCashIn {
  private readonly logger = new Logger('Settlement');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTIONS) private readonly projections: Projections,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async handle(message: PixRecebidoMessage): Promise<void> {
    const { versao: _v, ...fields } = message;
    const pix: PixRecebido = fields;
    const recorded = await executeOnStream(this.store, pixStreamId(pix.endToEndId), pixDecider, () => ({ type: 'RegistrarPix' as const, pix, now: this.clock.now() }));
    let last = recorded.position;
    if (pix.txid) {
      const settled = await executeOnStream(this.store, cobvStreamId(pix.txid), cobvDecider, () => ({ type: 'RegistrarPagamentoCobV' as const, txid: pix.txid!, pix, now: this.clock.now() }));
      if (settled.position) {
        last = settled.position;
        this.logger.log(`cobv ${pix.txid} CONCLUIDA by Pix ${pix.endToEndId} (${pix.valor})`);
      }
    }
    if (last) await this.projections.waitFor([pixProjection.name, cobvProjection.name], last);
  }
}
