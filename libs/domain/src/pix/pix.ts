/** A received Pix as the official `Pix` schema shows it (amounts as wire strings). */
export interface PixRecebido {
  endToEndId: string;
  txid?: string;
  valor: string;
  chave: string;
  horario: string;
  infoPagador?: string;
  componentesValor?: Record<string, { valor: string; modalidade?: number }>;
  /** Payer, where the PSP's core knows it (not part of the official Pix object). */
  pagador?: { cpf?: string; cnpj?: string; nome?: string };
}

/**
 * The stream `pix-{endToEndId}` (an endToEndId is unique across the whole Pix system). The event
 * says which receiver owned the key when the Pix arrived; null when none here did (the Pix is
 * kept, and shown to nobody).
 */
export type PixEvent = { type: 'PixRecebido'; data: { pix: PixRecebido; registradoEm: string; recebedorId: string | null } };
export type PixCommand = { type: 'RegistrarPix'; pix: PixRecebido; now: Date; recebedorId: string | null };
export type PixState = { exists: false } | { exists: true; pix: PixRecebido; recebedorId: string | null };

export const pixStreamId = (endToEndId: string) => `pix-${endToEndId}`;

/** A Pix is recorded once per endToEndId: the same cash-in seen again changes nothing. */
export const pixDecider = {
  initialState: { exists: false } as PixState,
  decide(command: PixCommand, state: PixState): PixEvent[] {
    if (state.exists) return [];
    return [{ type: 'PixRecebido', data: { pix: command.pix, registradoEm: command.now.toISOString(), recebedorId: command.recebedorId } }];
  },
  evolve(_state: PixState, event: PixEvent): PixState {
    return { exists: true, pix: event.data.pix, recebedorId: event.data.recebedorId ?? null };
  },
};

/** The official `Pix` object (what GET /pix and webhooks show): no payer, no internal fields. */
export function toOfficialPix(p: PixRecebido): Record<string, unknown> {
  const { pagador: _payer, ...official } = p;
  return JSON.parse(JSON.stringify(official));
}
