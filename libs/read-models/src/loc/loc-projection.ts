import { cobvKeyOfStream, LOCATION_EVENT_TYPES, locKeyOfStream, splitTenantKey, tenantKey, type CobVEvent, type LocationEvent, type TipoCob } from '@pix/domain';
import type { ProjectedEvent, Projection } from '../projection';

/** A payload location as `GET /loc` shows it; `explicita` when made by `POST /loc` (it has its own stream). */
export interface LocRow {
  id: number;
  tipoCob: TipoCob;
  location: string;
  criacao: string;
  recebedorId: string;
  txid?: string;
  explicita: boolean;
}

type Event = LocationEvent | CobVEvent;

const unlinked = (row: LocRow | null, txid: string): LocRow | null => {
  // Only the charge it serves may take it away: a late event of an earlier charge changes nothing.
  if (!row || row.txid !== txid) return row;
  const { txid: _gone, ...rest } = row;
  return rest;
};

/**
 * Every location of a receiver: those made by `POST /loc` (stream `loc-{rid}/{id}`) and the
 * implicit one each charge created without `loc.id` gets (its `CobVCriada`). Row id `{rid}/{id}`.
 * A charge's `CobVLocationVinculada` (linked by PATCH) names its location too, as `CobVCriada` does.
 * Whom a `POST /loc` location serves is its own stream's word (`LocationVinculada`, appended before
 * the charge's event): a charge's late `CobVCriada` on it, after a DELETE freed it and another
 * charge took it, names nobody (2026-11-27, an audit: it named the late charge, whose own unlink
 * then left the row naming no one while the other charge held the location).
 */
export const locProjection: Projection<LocRow, Event> = {
  name: 'loc',
  table: 'rm_loc',
  canHandle: [...LOCATION_EVENT_TYPES, 'CobVCriada', 'CobVLocationVinculada', 'CobVLocationDesvinculada'],
  keyOf(event: ProjectedEvent<Event>) {
    const own = locKeyOfStream(event.streamId);
    if (own) return own;
    const charge = cobvKeyOfStream(event.streamId);
    if (!charge) return [];
    const { recebedorId } = splitTenantKey(charge);
    const e = event;
    if (e.type === 'CobVCriada') return tenantKey(recebedorId, String(e.data.loc.id));
    if (e.type === 'CobVLocationDesvinculada') return tenantKey(recebedorId, String(e.data.locId));
    if (e.type === 'CobVLocationVinculada') return tenantKey(recebedorId, String(e.data.loc.id));
    return [];
  },
  apply(row, event, key) {
    const e = event;
    switch (e.type) {
      case 'LocationCriada':
        return { ...e.data, explicita: true, ...(row?.txid ? { txid: row.txid } : {}) };
      case 'LocationVinculada':
        return row && { ...row, txid: e.data.txid };
      case 'LocationDesvinculada':
      case 'CobVLocationDesvinculada':
        return unlinked(row, e.data.txid);
      case 'CobVLocationVinculada':
        // Always a POST /loc location: its LocationVinculada named the txid, or a later one another.
        return row;
      case 'CobVCriada': {
        if (row) return row.explicita ? row : { ...row, txid: e.data.txid };
        const { id, location, criacao } = e.data.loc;
        return { id, tipoCob: 'cobv', location, criacao, recebedorId: splitTenantKey(key).recebedorId, txid: e.data.txid, explicita: false };
      }
      default:
        return row;
    }
  },
  columns: [
    { name: 'recebedor_id', sqlType: 'text NOT NULL', value: (r) => r.recebedorId },
    { name: 'criacao', sqlType: 'timestamptz NOT NULL', value: (r) => r.criacao },
    { name: 'tipo_cob', sqlType: 'text NOT NULL', value: (r) => r.tipoCob },
    { name: 'txid', sqlType: 'text', value: (r) => r.txid },
  ],
  // Every listing is one receiver's, over a creation period.
  indexes: [{ name: 'recebedor_criacao', columns: ['recebedor_id', 'criacao'] }],
  inline: 'shared',
};
