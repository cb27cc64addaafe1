import type { Pool } from 'pg';
import type { PixRecebidoMessage } from '@pix/contracts';
import type { PixRecebido } from '@pix/domain';
import { cobvProjection, pixProjection, webhookProjection } from '@pix/read-models';

/**
 * Local mode's cash-ins have no broker to redeliver them: the in-process bus records the Pix,
 * settles its charge, then stores its notification, and a crash between those steps left a Pix
 * whose charge stayed ATIVA, or one never notified (its charge CONCLUIDA, so a retry was refused).
 * At start-up, every recorded Pix of a receiver's charge whose charge is still ATIVA, or whose key
 * has a webhook but no notification of it exists, goes through the bus again: both steps are
 * idempotent by endToEndId, so what was done is done again as nothing. The set empties as they run.
 */
export async function unfinishedLocalCashIns(pool: Pool): Promise<PixRecebidoMessage[]> {
  const { rows } = await pool.query<{ pix: PixRecebido }>(
    `SELECT p.doc->'pix' AS pix FROM ${pixProjection.table} p
      WHERE p.recebedor_id IS NOT NULL AND p.txid IS NOT NULL
        AND (EXISTS (SELECT 1 FROM ${cobvProjection.table} c WHERE c.id = p.recebedor_id || '/' || p.txid AND c.status = 'ATIVA')
             OR (NOT EXISTS (SELECT 1 FROM webhook_outbox o WHERE o.end_to_end_id = p.id)
                 AND EXISTS (SELECT 1 FROM ${webhookProjection.table} w WHERE w.id = p.doc->'pix'->>'chave')))
      ORDER BY p.horario, p.id`,
  );
  return rows.map(({ pix }) => ({ versao: 1, ...pix }));
}
