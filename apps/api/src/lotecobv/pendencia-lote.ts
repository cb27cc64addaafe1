import type { Pool } from 'pg';
import type { PendenciaLote } from '@pix/domain';
import { findSolicitacoesByTxid } from '@pix/read-models';

/** This receiver's batch requests for this txid that are not (yet) a charge; the decider says which of them refuse PUT/PATCH /cobv. */
export async function pendenciaLote(db: Pick<Pool, 'query'>, recebedorId: string, txid: string): Promise<PendenciaLote[]> {
  const rows = await findSolicitacoesByTxid(db, recebedorId, [txid]);
  return rows.filter((r) => r.status !== 'CRIADA').map((r) => ({ loteCobVId: r.loteCobVId, status: r.status as PendenciaLote['status'] }));
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
