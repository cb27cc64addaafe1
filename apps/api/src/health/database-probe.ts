import type { Pool } from 'pg';
import { withTimeout } from '@pix/observability';
import { countSolicitacoesEmProcessamento } from '@pix/read-models';

/** A probe never waits longer than this for the database. */
const PROBE_TIMEOUT_MS = 2000;

/**
 * Readiness's database probe (pix_dependency_up{dependency="database"} asks the same): the batch
 * requests pending, which /health shows; rejects when the database does not answer in time.
 */
export function probeDatabase(db: Pool): Promise<number> {
  return withTimeout(countSolicitacoesEmProcessamento(db), PROBE_TIMEOUT_MS, `no answer from the database within ${PROBE_TIMEOUT_MS} ms`);
}
