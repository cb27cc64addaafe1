import type { TipoCob } from './events';

export type LocationCommand =
  | { type: 'CriarLocation'; id: number; tipoCob: TipoCob; location: string; recebedorId: string; now: Date }
  /**
   * Claims the location for a charge: refused while it serves another txid. `campo`: the member
   * that named it (`cobv.loc.id` from PUT /cobv), named in the refusal as the contract words it.
   */
  | { type: 'VincularLocation'; txid: string; tipoCob: TipoCob; now: Date; campo?: string }
  /**
   * Frees the location; nothing to do when no charge uses it. With `txid`, only while it is that
   * charge's (a request letting go of the claim it made but did not use).
   */
  | { type: 'DesvincularLocation'; now: Date; txid?: string };
