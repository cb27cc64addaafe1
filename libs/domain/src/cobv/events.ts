import type { PixRecebido } from '../pix/pix';
import type { CobVContent, PayloadLocation, Recebedor } from './types';

/** Events of the stream `cobv-{txid}`; `data` is stored as JSON, so only JSON-safe values. */
export type CobVEvent =
  | {
      type: 'CobVCriada';
      data: {
        txid: string;
        criacao: string;
        cobranca: CobVContent;
        loc: PayloadLocation;
        recebedor: Omit<Recebedor, 'chaves'>;
        loteCobVId?: number;
      };
    }
  | { type: 'CobVRevisada'; data: { txid: string; revisao: number; em: string; cobranca: CobVContent; via: 'PUT' | 'PATCH' } }
  | { type: 'CobVRemovida'; data: { txid: string; revisao: number; em: string; status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } }
  | { type: 'CobVConcluida'; data: { txid: string; em: string; pix: PixRecebido } };

export type CobVEventType = CobVEvent['type'];
export const COBV_EVENT_TYPES: readonly CobVEventType[] = ['CobVCriada', 'CobVRevisada', 'CobVRemovida', 'CobVConcluida'];

export const cobvStreamId = (txid: string) => `cobv-${txid}`;
