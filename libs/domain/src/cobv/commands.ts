import type { PixRecebido } from '../pix/pix';
import type { CobVInput, CobVPatchInput, Recebedor } from './types';

export type CobVCommand =
  | {
      type: 'CriarOuAlterarCobV';
      txid: string;
      input: CobVInput;
      now: Date;
      recebedor: Recebedor;
      /** Pre-allocated by the shell (id generator); used only when the charge is created. */
      novaLocation: { id: number; location: string };
      /** Set when a batch creates the charge. */
      loteCobVId?: number;
      /** The txid's request in a batch, when it has one that is not a created charge. */
      pendenteEmLote?: PendenciaLote;
    }
  | { type: 'RevisarCobV'; txid: string; input: CobVPatchInput; now: Date; recebedor: Recebedor; pendenteEmLote?: PendenciaLote }
  | { type: 'RegistrarPagamentoCobV'; txid: string; pix: PixRecebido; now: Date; pendenteEmLote?: undefined };

/** A batch request for this txid still EM_PROCESSAMENTO or NEGADA: no charge may be touched. */
export interface PendenciaLote {
  loteCobVId: string;
  status: 'EM_PROCESSAMENTO' | 'NEGADA';
}
