import { tenantKey } from '../shared/tenant';

/** The kinds of charge a location can serve; we serve due charges only (see ADR 12). */
export type TipoCob = 'cob' | 'cobv';

/** Events of the stream `loc-{recebedorId}/{id}`: a location created by `POST /loc`; JSON-safe data only. */
export type LocationEvent =
  | { type: 'LocationCriada'; data: { id: number; tipoCob: TipoCob; location: string; criacao: string; recebedorId: string } }
  | { type: 'LocationVinculada'; data: { txid: string; em: string } }
  | { type: 'LocationDesvinculada'; data: { txid: string; em: string } };

export type LocationEventType = LocationEvent['type'];
export const LOCATION_EVENT_TYPES: readonly LocationEventType[] = ['LocationCriada', 'LocationVinculada', 'LocationDesvinculada'];

const PREFIX = 'loc-';

/** A location's stream: tenant-keyed like every other (ADR 9), so ids never leak across receivers. */
export const locStreamId = (recebedorId: string, id: number) => `${PREFIX}${tenantKey(recebedorId, String(id))}`;

/** The tenant key `{recebedorId}/{id}` of a location stream, or undefined for any other stream. */
export function locKeyOfStream(streamId: string): string | undefined {
  return streamId.startsWith(PREFIX) && streamId.indexOf('/') > PREFIX.length ? streamId.slice(PREFIX.length) : undefined;
}
