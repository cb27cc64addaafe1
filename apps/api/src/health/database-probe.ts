import type { Pool } from 'pg';
import { countSolicitacoesEmProcessamento } from '@pix/read-models';

/** A probe never waits longer than this for the database. */
const PROBE_TIMEOUT_MS = 2000;

/**
 * Readiness's database probe (pix_dependency_up{dependency="database"} asks the same): the batch
 * requests pending, which /health shows; rejects when the database does not answer in time.
 */
export function probeDatabase(db: Pool): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the database within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  return Promise.race([countSolicitacoesEmProcessamento(db), timeout]).finally(() => clearTimeout(timer));
}
