import type { CobVCommand } from './commands';
import type { CobVEvent } from './events';
import type { CobVState } from './state';

// The PSP's own decisions on a charge (not the receiver's PUT/PATCH): a cash-in, a removal.

/**
 * How far the PSP core's clock (it sets a Pix's `horario`) may be from ours: the cash-in message's
 * own tolerance (HORARIO_CLOCK_SKEW_MS in the contracts), kept here for the domain's own rules.
 */
export const PSP_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * A cash-in for an ATIVA charge concludes it. The same Pix again (a redelivered message) changes
 * nothing; a Pix for a charge that is missing, already concluded, or removed before the Pix was
 * paid leaves the charge as it is (the Pix itself is kept in its own stream).
 */
export function settle(command: Extract<CobVCommand, { type: 'RegistrarPagamentoCobV' }>, state: CobVState, em: string): CobVEvent[] {
  if (!state.exists || (state.status !== 'ATIVA' && !paidBeforeRemoval(state, command.pix))) return [];
  if (state.pix?.some((p) => p.endToEndId === command.pix.endToEndId)) return [];
  return [{ type: 'CobVConcluida', data: { txid: state.txid, em, pix: command.pix } }];
}

/**
 * A Pix paid while the charge was ATIVA and settled after it was removed, by its receiver or by
 * the PSP: the payer paid this charge, so it concludes it (ADR 7). Settlement records the Pix,
 * then concludes the charge: a receiver's removal landing between the two, or the consumers
 * running behind (a key moved on, ADR 9), must not leave a paid charge removed without its Pix.
 */
function paidBeforeRemoval(state: Extract<CobVState, { exists: true }>, pix: { horario: string }): boolean {
  const removed = state.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR' || state.status === 'REMOVIDA_PELO_PSP';
  const paidAt = Date.parse(pix.horario);
  // While ATIVA: not before the charge existed (a Pix dated before its creation, beyond the clocks'
  // skew, paid something else; 2026-11-27, an audit: one dated 0001-01-01 concluded a removed charge).
  return removed && state.removidaEm !== undefined && paidAt < Date.parse(state.removidaEm) && paidAt >= Date.parse(state.criacao) - PSP_CLOCK_SKEW_MS;
}

/**
 * Only an ATIVA charge on the key being removed: run again (a retried sweep) or after a PATCH
 * moved the charge to another of the receiver's keys, it changes nothing.
 */
export function removeByPsp(command: Extract<CobVCommand, { type: 'RemoverCobVPeloPsp' }>, state: CobVState, em: string): CobVEvent[] {
  if (!state.exists || state.status !== 'ATIVA' || state.cobranca.chave !== command.chave) return [];
  return [{ type: 'CobVRemovidaPeloPsp', data: { txid: state.txid, revisao: state.revisao + 1, em, chave: command.chave, motivo: command.motivo } }];
}
