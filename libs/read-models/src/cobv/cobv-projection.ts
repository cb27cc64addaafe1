import { cobvDecider, cobvKeyOfStream, type CobVEvent, type CobVState, COBV_EVENT_TYPES } from '@pix/domain';
import type { ProjectedEvent, Projection } from '../projection';

export type CobVRow = Extract<CobVState, { exists: true }>;

/** `host/qr/v2/cobv/{token}` (with or without https://) → `token`; undefined when there is none. */
export function locationTokenOf(location: string | undefined): string | undefined {
  const token = location?.slice(location.lastIndexOf('/') + 1);
  return token ? token : undefined;
}

/**
 * The charge read model: a row is the charge's state, folded by the domain's own evolve. The row
 * id is the stream's tenant key `{recebedorId}/{txid}`, so two receivers' equal txids are two rows.
 */
export const cobvProjection: Projection<CobVRow, CobVEvent> = {
  name: 'cobv',
  table: 'rm_cobv',
  canHandle: COBV_EVENT_TYPES,
  keyOf: (event: ProjectedEvent<CobVEvent>) => cobvKeyOfStream(event.streamId) ?? [],
  apply(row, event) {
    const next = cobvDecider.evolve(row ?? cobvDecider.initialState, event);
    return next.exists ? next : null;
  },
  columns: [
    { name: 'recebedor_id', sqlType: 'text NOT NULL', value: (r) => r.recebedor.id },
    { name: 'status', sqlType: 'text NOT NULL', value: (r) => r.status, indexed: true },
    { name: 'criacao', sqlType: 'timestamptz NOT NULL', value: (r) => r.criacao },
    { name: 'devedor_cpf', sqlType: 'text', value: (r) => r.cobranca.devedor.cpf, indexed: 'when-set' },
    { name: 'devedor_cnpj', sqlType: 'text', value: (r) => r.cobranca.devedor.cnpj, indexed: 'when-set' },
    { name: 'lote_cobv_id', sqlType: 'bigint', value: (r) => r.loteCobVId, indexed: 'when-set' },
    { name: 'revisao', sqlType: 'integer NOT NULL', value: (r) => r.revisao },
    // The payload location's capability token (its last path segment): how a payer's GET finds the charge.
    { name: 'location_token', sqlType: 'text', value: (r) => locationTokenOf((r as { loc?: { location?: string } }).loc?.location), indexed: true },
  ],
  // Every listing is one receiver's, over a creation period.
  indexes: [{ name: 'recebedor_criacao', columns: ['recebedor_id', 'criacao'] }],
  inline: 'stream',
};
