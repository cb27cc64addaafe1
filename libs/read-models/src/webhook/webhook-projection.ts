import type { WebhookEvent, WebhookState } from '@pix/domain';
import type { Projection } from '../projection';

export type WebhookRow = Extract<WebhookState, { exists: true }>;

/** Registered webhooks, for GET /webhook (deliveries read the stream itself: no lag). */
export const webhookProjection: Projection<WebhookRow> = {
  name: 'webhook',
  table: 'rm_webhook',
  canHandle: ['WebhookConfigurado', 'WebhookRemovido'],
  keyOf: (event) => String(event.data.chave),
  apply: (_row, event) => {
    const e = { type: event.type, data: event.data } as WebhookEvent;
    return e.type === 'WebhookConfigurado' ? { exists: true, ...e.data } : null;
  },
  columns: [{ name: 'criacao', sqlType: 'timestamptz NOT NULL', value: (r) => r.criacao, indexed: true }],
};

export async function listWebhooks(
  db: { query: (sql: string, params: unknown[]) => Promise<{ rows: any[] }> },
  f: { inicio?: Date; fim?: Date; paginaAtual: number; itensPorPagina: number },
): Promise<{ rows: WebhookRow[]; total: number }> {
  const where = ['($1::timestamptz IS NULL OR criacao >= $1)', '($2::timestamptz IS NULL OR criacao <= $2)'].join(' AND ');
  const params = [f.inicio ?? null, f.fim ?? null];
  const total = await db.query(`SELECT count(*) AS n FROM ${webhookProjection.table} WHERE ${where}`, params);
  const page = await db.query(`SELECT doc FROM ${webhookProjection.table} WHERE ${where} ORDER BY criacao, id LIMIT $3 OFFSET $4`, [
    ...params,
    f.itensPorPagina,
    f.paginaAtual * f.itensPorPagina,
  ]);
  return { rows: page.rows.map((r) => r.doc), total: Number(total.rows[0].n) };
}
