import type { Pool } from 'pg';
import type { PendenciaLote } from '@pix/domain';
import { findSolicitacoesByTxid } from '@pix/read-models';

/** A batch request of this receiver for this txid that is not (yet) a charge: PUT/PATCH /cobv must refuse it. */
export async function pendenciaLote(db: Pick<Pool, 'query'>, recebedorId: string, txid: string): Promise<PendenciaLote | undefined> {
  const rows = await findSolicitacoesByTxid(db, recebedorId, [txid]);
  const pending = rows.find((r) => r.status !== 'CRIADA');
  return pending ? { loteCobVId: pending.loteCobVId, status: pending.status as PendenciaLote['status'] } : undefined;
}
