import { cobvProjection } from './cobv/cobv-projection';
import { locProjection } from './loc/loc-projection';
import { lotecobvProjection, solicitacaoLoteProjection } from './lotecobv/lotecobv-projection';
import { pixProjection } from './pix/pix-projection';
import type { Projection } from './projection';
import { webhookProjection } from './webhook/webhook-projection';

/** Projections an operator can replay by name. */
export const PROJECTIONS: Record<string, Projection<any>> = {
  [cobvProjection.name]: cobvProjection,
  [lotecobvProjection.name]: lotecobvProjection,
  [solicitacaoLoteProjection.name]: solicitacaoLoteProjection,
  [pixProjection.name]: pixProjection,
  [webhookProjection.name]: webhookProjection,
  [locProjection.name]: locProjection,
};
