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
  const total = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${webhookProjection.table} WHERE ${where}`, params);
  const page = await db.query<{ doc: WebhookRow }>(`SELECT doc FROM ${webhookProjection.table} WHERE ${where} ORDER BY criacao, id LIMIT $4 OFFSET $5`, [
    ...params,
    f.itensPorPagina,
    f.paginaAtual * f.itensPorPagina,
  ]);
  return { rows: page.rows.map((r) => r.doc), total: Number(total.rows[0].n) };
}
