import type { PixEvent, PixRecebido } from '@pix/domain';
import type { Projection } from '../projection';

/** Received Pix, for GET /pix and GET /pix/{e2eid}. */
export const pixProjection: Projection<PixRecebido> = {
  name: 'pix',
  table: 'rm_pix',
  canHandle: ['PixRecebido'],
  keyOf: (event) => String((event.data as PixEvent['data']).pix.endToEndId),
  apply: (row, event) => row ?? (event.data as PixEvent['data']).pix,
  columns: [
    { name: 'horario', sqlType: 'timestamptz NOT NULL', value: (r) => r.horario, indexed: true },
    { name: 'txid', sqlType: 'text', value: (r) => r.txid, indexed: true },
    { name: 'pagador_cpf', sqlType: 'text', value: (r) => r.pagador?.cpf },
    { name: 'pagador_cnpj', sqlType: 'text', value: (r) => r.pagador?.cnpj },
  ],
};
