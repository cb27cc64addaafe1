import { Inject, Injectable, Logger } from '@nestjs/common';
import { cobvDecider, DomainError, tenantKey, type CobVCommand, type CobVState } from '@pix/domain';
import { handleCommand, type BuildContext, type EventStore, type HandleOptions } from '@pix/event-store';
import type { CobVRow } from '@pix/read-models';
import type { Projections } from '../infrastructure/projections';
import { CLOCK, EVENT_STORE, PROJECTIONS } from '../infrastructure/tokens';
import { KeyedMutex } from '../shared/keyed-mutex';
import type { Clock } from '../shared/ports';
import { cobvStream } from '../shared/streams';

export const TXID_PATTERN = /^[a-zA-Z0-9]{26,35}$/;

/**
 * Runs a charge command (read, decide, append at the revision read, again on conflict) and
 * returns once the read model shows the change (read-your-writes).
 */
@Injectable()
export class CobVWriter {
  private readonly logger = new Logger('CobVWriter');
  private readonly mutex = new KeyedMutex();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTIONS) private readonly projections: Projections,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** On the receiver's own charge `cobv-{recebedorId}/{txid}`. */
  execute(
    recebedorId: string,
    txid: string,
    build: (state: CobVState, now: Date, context: BuildContext) => Promise<CobVCommand> | CobVCommand,
    options: Pick<HandleOptions, 'assumeNew'> = {},
  ): Promise<{ state: CobVRow; changed: boolean }> {
    return this.mutex.run(tenantKey(recebedorId, txid), async () => {
      const { state, position } = await handleCommand(this.store, cobvStream(recebedorId, txid), cobvDecider, (s, _, context) => build(s, this.clock.now(), context), options);
      if (position && !(await this.projections.waitFor(['cobv', 'loc'], position)))
        this.logger.warn(`read model of cobv ${txid} not caught up after 5 s; the write is stored`);
      if (!state.exists) throw new DomainError('CobVNaoEncontrada', 'Cobrança com vencimento não encontrada.');
      return { state, changed: position !== undefined };
    });
  }
}
