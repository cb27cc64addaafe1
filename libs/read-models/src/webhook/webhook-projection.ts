import { pageWithTotal } from '../page-with-total';
import type { Pool } from 'pg';
import { webhookDecider, type WebhookEvent, type WebhookState } from '@pix/domain';
import type { Projection } from '../projection';

export type WebhookRow = Extract<WebhookState, { exists: true }>;

/**
 * Registered webhooks, for GET /webhook, keyed by Pix key (a key is one receiver's at a time).
 * Deliveries read the stream itself: no lag.
 */
export const webhookProjection: Projection<WebhookRow, WebhookEvent> = {
  name: 'webhook',
  table: 'rm_webhook',
  canHandle: ['WebhookConfigurado', 'WebhookRemovido'],
  keyOf: (event) => event.data.chave,
  apply: (row, event) => {
    const next = webhookDecider.evolve(row ?? webhookDecider.initialState, event);
    return next.exists ? next : null;
  },
  columns: [
    // Nullable only for registrations written before receivers had ids: those are nobody's.
    { name: 'recebedor_id', sqlType: 'text', value: (r) => r.recebedorId },
    { name: 'criacao', sqlType: 'timestamptz NOT NULL', value: (r) => r.criacao },
  ],
  indexes: [{ name: 'recebedor_criacao', columns: ['recebedor_id', 'criacao'] }],
  inline: 'stream',
};

/** One receiver's webhooks, optionally by creation period, one page in creation order, with the total. */
export async function listWebhooks(
  db: Pick<Pool, 'query'>,
  recebedorId: string,
  f: { inicio?: Date; fim?: Date; paginaAtual: number; itensPorPagina: number },
): Promise<{ rows: WebhookRow[]; total: number }> {
  const where = ['recebedor_id = $1', '($2::timestamptz IS NULL OR criacao >= $2)', '($3::timestamptz IS NULL OR criacao <= $3)'].join(' AND ');
  const params = [recebedorId, f.inicio ?? null, f.fim ?? null];
  const { rows, total } = await pageWithTotal<{ doc: WebhookRow }>(db, { from: webhookProjection.table, where, params, columns: 'doc', orderBy: ['criacao', 'id'], itensPorPagina: f.itensPorPagina, paginaAtual: f.paginaAtual });
  return { rows: rows.map((r) => r.doc), total };
}
