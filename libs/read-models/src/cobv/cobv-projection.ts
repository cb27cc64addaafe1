import { cobvDecider, type CobVEvent, type CobVState, COBV_EVENT_TYPES } from '@pix/domain';
import type { RecordedEvent } from '@pix/event-store';
import type { Projection } from '../projection';

export type CobVRow = Extract<CobVState, { exists: true }>;

/** The charge read model: a row is the charge's state, folded by the domain's own evolve. */
export const cobvProjection: Projection<CobVRow> = {
  name: 'cobv',
  table: 'rm_cobv',
  canHandle: COBV_EVENT_TYPES,
  keyOf: (event: RecordedEvent) => String(event.data.txid),
  apply(row, event) {
    const next = cobvDecider.evolve(row ?? cobvDecider.initialState, { type: event.type, data: event.data } as CobVEvent);
    return next.exists ? next : null;
  },
  columns: [
    { name: 'status', sqlType: 'text NOT NULL', value: (r) => r.status, indexed: true },
    { name: 'criacao', sqlType: 'timestamptz NOT NULL', value: (r) => r.criacao, indexed: true },
    { name: 'devedor_cpf', sqlType: 'text', value: (r) => r.cobranca.devedor.cpf, indexed: true },
    { name: 'devedor_cnpj', sqlType: 'text', value: (r) => r.cobranca.devedor.cnpj, indexed: true },
    { name: 'lote_cobv_id', sqlType: 'bigint', value: (r) => r.loteCobVId, indexed: true },
    { name: 'revisao', sqlType: 'integer NOT NULL', value: (r) => r.revisao },
  ],
};
