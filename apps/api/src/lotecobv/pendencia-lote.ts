import type { Pool } from 'pg';
import type { PendenciaLote } from '@pix/domain';
import { findSolicitacoesByTxid } from '@pix/read-models';

/** A batch request of this receiver for this txid that is not (yet) a charge: PUT/PATCH /cobv must refuse it. */
export async function pendenciaLote(db: Pick<Pool, 'query'>, recebedorId: string, txid: string): Promise<PendenciaLote | undefined> {
  const rows = await findSolicitacoesByTxid(db, recebedorId, [txid]);
  const pending = rows.find((r) => r.status !== 'CRIADA');
  return pending ? { loteCobVId: pending.loteCobVId, status: pending.status as PendenciaLote['status'] } : undefined;
}

/**
 * Starts `load` now, so the batch check runs beside the stream read (one round trip of latency
 * less); the first call takes that answer, a retry after a concurrent write asks again.
 */
export function firstThenFresh<T>(load: () => Promise<T>): () => Promise<T> {
  let first: Promise<T> | undefined = load();
  first.catch(() => undefined); // surfaces when awaited
  return () => {
    const answer = first ?? load();
    first = undefined;
    return answer;
  };
}
