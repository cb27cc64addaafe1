import type { CobVState, PixRecebido } from '@pix/domain';
import { withCorrelationId } from '@pix/observability';

/** Why a new Pix naming a charge of its receiver did not conclude it. */
export type UnsettledReason = 'no_charge' | 'charge_concluded' | 'charge_removed';
export const UNSETTLED_REASONS: UnsettledReason[] = ['no_charge', 'charge_concluded', 'charge_removed'];

/** The reason, from the charge as settlement found it (an ATIVA charge is always concluded). */
export function unsettledReason(state: CobVState): UnsettledReason {
  if (!state.exists) return 'no_charge';
  return state.status === 'CONCLUIDA' ? 'charge_concluded' : 'charge_removed';
}

/**
 * New Pix that name a charge (txid) of their receiver and settle nothing. A charge already
 * concluded or removed means the payer paid again or too late: money the receiver may have to
 * return (devolução), which settled silently (an operator audit, 2026-11-28). Each is counted
 * (`observe`, the API's metric) and told at warn. A txid with no charge here is normal where the
 * PSP core also publishes Pix of charges kept elsewhere (immediate `cob`): counted, told at debug.
 */
export class UnsettledCashIns {
  observe: (reason: UnsettledReason) => void = () => undefined;

  constructor(private readonly logger: { warn(message: string): void; debug(message: string): void }) {}

  record(recebedorId: string, pix: PixRecebido, state: CobVState, correlationId?: string): void {
    const reason = unsettledReason(state);
    this.observe(reason);
    const what = `Pix ${pix.endToEndId} (${pix.valor}) for cobv ${recebedorId}/${pix.txid} settled nothing`;
    withCorrelationId(correlationId, () => {
      if (!state.exists) return this.logger.debug(`${what}: no such charge here`);
      const why = state.status === 'CONCLUIDA' ? `the charge was already CONCLUIDA (by Pix ${state.pix?.[0]?.endToEndId ?? '?'})` : `the charge was ${state.status} before this Pix was paid`;
      this.logger.warn(`${what}: ${why}; recorded (GET /pix shows it), nothing concluded: the receiver may owe the payer a refund (devolução)`);
    });
  }
}
