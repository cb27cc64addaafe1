import type { PixRecebido } from '../pix/pix';
import { tenantKey } from '../shared/tenant';
import type { CobVContent, PayloadLocation, Recebedor } from './types';

/** Events of the stream `cobv-{recebedorId}/{txid}`; `data` is stored as JSON, so only JSON-safe values. */
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
  /** The PSP removed the charge (its key left the receiver): status REMOVIDA_PELO_PSP, revisao + 1 as a receiver's removal. */
  | { type: 'CobVRemovidaPeloPsp'; data: { txid: string; revisao: number; em: string; chave: string; motivo: string } }
  | { type: 'CobVConcluida'; data: { txid: string; em: string; pix: PixRecebido } }
  /** `DELETE /loc/{id}/txid`: the charge no longer has a location (nor a BR Code) until given one again. */
  | { type: 'CobVLocationDesvinculada'; data: { txid: string; em: string; locId: number } }
  /** PATCH `loc.id` gave a charge with no location one made by `POST /loc`, already claimed for it (ADR 12). */
  | { type: 'CobVLocationVinculada'; data: { txid: string; em: string; loc: PayloadLocation } };

export type CobVEventType = CobVEvent['type'];
export const COBV_EVENT_TYPES: readonly CobVEventType[] = ['CobVCriada', 'CobVRevisada', 'CobVRemovida', 'CobVRemovidaPeloPsp', 'CobVConcluida', 'CobVLocationDesvinculada', 'CobVLocationVinculada'];

const PREFIX = 'cobv-';

/** A charge's stream: the receiver is part of it, so two receivers' equal txids never meet. */
export const cobvStreamId = (recebedorId: string, txid: string) => `${PREFIX}${tenantKey(recebedorId, txid)}`;

/**
 * The tenant key `{recebedorId}/{txid}` of a charge stream, which read models use as row id;
 * undefined for any other stream (and for streams written before receivers had ids).
 */
export function cobvKeyOfStream(streamId: string): string | undefined {
  return streamId.startsWith(PREFIX) && streamId.indexOf('/') > PREFIX.length ? streamId.slice(PREFIX.length) : undefined;
}
