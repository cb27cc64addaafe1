import type { Pool } from 'pg';

/**
 * The safety net of `webhook_due_keys` (ADR 15): every key with pending notifications gets a row
 * whose `due_at` is no later than its earliest schedule. Storing, resending and claiming keep
 * that true as they go; this restores it whatever wrote the outbox (an older version during a
 * rolling upgrade, an operator's SQL), so a notification can be delayed by a missing key, never
 * stranded. One pass over the pending rows' (chave, next_attempt_at) index; rows locked in key
 * order, as the intake takes them. Answers how many keys it added or moved earlier.
 */
export const REPAIR_FUNCTION_DDL = `
CREATE OR REPLACE FUNCTION webhook_repair_due_keys() RETURNS int
LANGUAGE plpgsql VOLATILE
AS $repair$
DECLARE
  n int;
BEGIN
  INSERT INTO webhook_due_keys AS q (chave, due_at)
  SELECT o.chave, min(o.next_attempt_at) FROM webhook_outbox o WHERE o.status = 'pending' GROUP BY o.chave ORDER BY o.chave
  ON CONFLICT (chave) DO UPDATE SET due_at = EXCLUDED.due_at, version = q.version + 1 WHERE EXCLUDED.due_at < q.due_at;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END
$repair$`;

/**
 * Lowers the keys' `due_at` to what the rows just stored or made pending again are due at (SQL
 * to run after a data-modifying CTE named `$rows` returning `chave, next_attempt_at`). The
 * version moves on every write, so a claim that read a key before it cannot drop it after.
 */
export const lowerDueKeys = (rows: string) => `
  INSERT INTO webhook_due_keys AS q (chave, due_at)
  SELECT r.chave, min(r.next_attempt_at) FROM ${rows} r GROUP BY r.chave ORDER BY r.chave
  ON CONFLICT (chave) DO UPDATE SET due_at = LEAST(q.due_at, EXCLUDED.due_at), version = q.version + 1`;

export async function repairDueKeys(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT webhook_repair_due_keys() AS n');
  return rows[0].n;
}
