import type { Paginacao } from '../cobv/cobv-response';
import type { TipoCobWire } from './loc-request';

/** Official `PayloadLocation` (201 of POST /loc, 200 of DELETE /loc/{id}/txid). */
export interface PayloadLocationWire {
  id: number;
  location: string;
  tipoCob: TipoCobWire;
  criacao: string;
}

/** Official `PayloadLocationCompleta`: with the txid of the charge it serves, if any. */
export interface PayloadLocationCompletaWire extends PayloadLocationWire {
  txid?: string;
}

/** Official `PayloadLocationConsultadas`. */
export interface PayloadLocationConsultadas {
  parametros: { inicio: string; fim: string; txIdPresente?: boolean; tipoCob?: TipoCobWire; paginacao: Paginacao };
  loc: PayloadLocationCompletaWire[];
}
