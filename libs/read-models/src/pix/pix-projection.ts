import type { PixEvent, PixRecebido } from '@pix/domain';
import type { Projection } from '../projection';

/** A received Pix and the receiver it belongs to (null: no receiver here owned its key). */
export interface PixRow {
  recebedorId: string | null;
  pix: PixRecebido;
}

/** Received Pix, for GET /pix and GET /pix/{e2eid}; keyed by endToEndId (unique system-wide). */
export const pixProjection: Projection<PixRow, PixEvent> = {
  name: 'pix',
  table: 'rm_pix',
  canHandle: ['PixRecebido'],
  keyOf: (event) => event.data.pix.endToEndId,
  apply: (row, { data }) => {
    return row ?? { recebedorId: data.recebedorId ?? null, pix: data.pix };
  },
  columns: [
    // Nullable: a Pix to a key nobody here owns is kept, and listed to nobody.
    { name: 'recebedor_id', sqlType: 'text', value: (r) => r.recebedorId },
    { name: 'horario', sqlType: 'timestamptz NOT NULL', value: (r) => r.pix.horario },
    { name: 'txid', sqlType: 'text', value: (r) => r.pix.txid },
    { name: 'pagador_cpf', sqlType: 'text', value: (r) => r.pix.pagador?.cpf },
    { name: 'pagador_cnpj', sqlType: 'text', value: (r) => r.pix.pagador?.cnpj },
  ],
  indexes: [
    { name: 'recebedor_horario', columns: ['recebedor_id', 'horario'] },
    { name: 'recebedor_txid', columns: ['recebedor_id', 'txid'] },
  ],
  inline: 'stream',
};
