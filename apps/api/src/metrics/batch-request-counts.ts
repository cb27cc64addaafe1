import type { Pool } from 'pg';

export const BATCH_REQUEST_STATUSES = ['EM_PROCESSAMENTO', 'CRIADA', 'NEGADA'] as const;

/** How long the decided totals are reused: `deriv()` over 5 minutes (the dashboard's) still reads their rate. */
export const DECIDED_RECOUNT_MS = 60_000;

/**
 * `pix_batch_requests` by status. The pending count is read at every scrape: the status index
 * finds the few requests still `EM_PROCESSAMENTO`. The decided totals only grow, and counting
 * them reads the whole history (0.31 s of PostgreSQL at 2 million requests, an audit found,
 * on every scrape of every instance), so they are recounted at most once a DECIDED_RECOUNT_MS.
 */
export function batchRequestCounts(db: Pick<Pool, 'query'>, now: () => number = Date.now): () => Promise<Record<(typeof BATCH_REQUEST_STATUSES)[number], number>> {
  let decided: { at: number; counts: Promise<{ CRIADA: number; NEGADA: number }> } | undefined;
  const count = async (sql: string) => (await db.query<{ status: string; n: number }>(sql)).rows;
  const recount = () =>
    count(`SELECT status, count(*)::int AS n FROM rm_lotecobv_solicitacao WHERE status IN ('CRIADA', 'NEGADA') GROUP BY status`).then((rows) => {
      const n = new Map(rows.map((r) => [r.status, r.n]));
      return { CRIADA: n.get('CRIADA') ?? 0, NEGADA: n.get('NEGADA') ?? 0 };
    });
  return async () => {
    if (!decided || now() - decided.at >= DECIDED_RECOUNT_MS) {
      const counts = recount();
      // A failed count is not kept: the next scrape tries again.
      counts.catch(() => (decided = undefined));
      decided = { at: now(), counts };
    }
    const [pending, totals] = await Promise.all([count(`SELECT 'EM_PROCESSAMENTO' AS status, count(*)::int AS n FROM rm_lotecobv_solicitacao WHERE status = 'EM_PROCESSAMENTO'`), decided.counts]);
    return { EM_PROCESSAMENTO: pending[0].n, ...totals };
  };
}
