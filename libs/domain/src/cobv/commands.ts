import type { PixRecebido } from '../pix/pix';
import type { CobVInput, CobVPatchInput, LocationReferenciada, PayloadLocation, Recebedor } from './types';

export type CobVCommand =
  | {
      type: 'CriarOuAlterarCobV';
      txid: string;
      input: CobVInput;
      now: Date;
      recebedor: Recebedor;
      /** Pre-allocated by the shell (id generator); needed only when a charge is created without `loc.id`. */
      novaLocation?: { id: number; location: string };
      /**
       * The location named by `loc.id`, already claimed for this txid by the shell (`POST /loc`
       * locations); absent when there is none of this receiver by that id.
       */
      locationSolicitada?: PayloadLocation;
      /** What the shell found under a `loc.id` this request cannot use (see LocationReferenciada). */
      locationReferenciada?: LocationReferenciada;
      /** Set when a batch creates the charge. */
      loteCobVId?: number;
      /** The txid's requests in batches that are not a created charge (see blockingPendencia). */
      pendenteEmLote?: readonly PendenciaLote[];
    }
  | {
      type: 'RevisarCobV';
      txid: string;
      input: CobVPatchInput;
      now: Date;
      recebedor: Recebedor;
      /**
       * The location named by `loc.id`, already claimed for this txid by the shell: a charge with
       * no location (unlinked by `DELETE /loc/{id}/txid`) gets it. Ignored while it has one.
       */
      locationSolicitada?: PayloadLocation;
      locationReferenciada?: LocationReferenciada;
      pendenteEmLote?: readonly PendenciaLote[];
    }
  | { type: 'RegistrarPagamentoCobV'; txid: string; pix: PixRecebido; now: Date; pendenteEmLote?: undefined }
  /** The charge stops using location `locId`; nothing to do when it does not use it. */
  | { type: 'DesvincularLocationCobV'; txid: string; locId: number; now: Date; pendenteEmLote?: undefined }
  /**
   * The PSP removes an ATIVA charge on `chave` (the key left its receiver: nobody could settle it).
   * A charge on another key (a PATCH moved it), or no longer ATIVA, is left as it is.
   */
  | { type: 'RemoverCobVPeloPsp'; txid: string; chave: string; motivo: string; now: Date; pendenteEmLote?: undefined };

/** A batch request for this txid still EM_PROCESSAMENTO or NEGADA. */
export interface PendenciaLote {
  loteCobVId: string;
  status: 'EM_PROCESSAMENTO' | 'NEGADA';
}
