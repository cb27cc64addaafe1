import {
  chaveStreamId,
  clienteStreamId,
  cobvStreamId,
  locStreamId,
  lotecobvStreamId,
  pixStreamId,
  recebedorStreamId,
  webhookStreamId,
  type ChaveEvent,
  type ClienteEvent,
  type CobVEvent,
  type LocationEvent,
  type LoteCobVEvent,
  type PixEvent,
  type RecebedorEvent,
  type WebhookEvent,
} from '@pix/domain';
import { streamType } from '@pix/event-store';

/**
 * Every aggregate's stream, typed by its own event union: the one command handler and every
 * fold read through these, so the store hands the domain its events with no cast. The type
 * lists are checked by the compiler against the unions (a missing or unknown type fails to build).
 */
export const cobvStream = streamType<CobVEvent, [string, string]>(
  { CobVCriada: true, CobVRevisada: true, CobVRemovida: true, CobVRemovidaPeloPsp: true, CobVConcluida: true, CobVLocationDesvinculada: true, CobVLocationVinculada: true },
  cobvStreamId,
);
export const lotecobvStream = streamType<LoteCobVEvent, [string, string]>({ LoteCobVCriado: true, LoteCobVAlterado: true, SolicitacaoLoteDecidida: true }, lotecobvStreamId);
export const locStream = streamType<LocationEvent, [string, number]>({ LocationCriada: true, LocationVinculada: true, LocationDesvinculada: true }, locStreamId);
export const webhookStream = streamType<WebhookEvent, [string]>({ WebhookConfigurado: true, WebhookRemovido: true }, webhookStreamId);
export const pixStream = streamType<PixEvent, [string]>({ PixRecebido: true }, pixStreamId);
export const recebedorStream = streamType<RecebedorEvent, [string]>(
  { RecebedorCadastrado: true, RecebedorAtualizado: true, ChaveVinculada: true, ChaveDesvinculada: true },
  recebedorStreamId,
);
export const chaveStream = streamType<ChaveEvent, [string]>({ ChaveReivindicada: true, ChaveLiberada: true }, chaveStreamId);
export const clienteStream = streamType<ClienteEvent, [string]>({ ClienteCriado: true, SegredoRotacionado: true, ClienteDesativado: true, EscoposDefinidos: true }, clienteStreamId);
