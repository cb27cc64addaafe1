import type { Pool } from 'pg';

/**
 * How long an endToEndId skipped at intake is remembered (ADR 7): a later copy with other content
 * is refused only while it is. Four times Kafka's default retention (7 days): a copy older than
 * that would come from a topic or consumer group far outside any configuration we support.
 */
export const INTAKE_SKIPPED_RETENTION_MS = 30 * 86_400_000;
const PRUNE_LIMIT = 10_000;

/**
 * Deletes up to PRUNE_LIMIT remembered endToEndIds seen before `before` (the BRIN index on
 * seen_at finds them without a scan); a backlog goes over several calls, each a short statement.
 */
export async function pruneIntakeSkipped(pool: Pick<Pool, 'query'>, before: Date): Promise<number> {
  const { rowCount } = await pool.query(
    `DELETE FROM webhook_intake_skipped WHERE end_to_end_id IN (SELECT end_to_end_id FROM webhook_intake_skipped WHERE seen_at < $1 LIMIT ${PRUNE_LIMIT})`,
    [before],
  );
  return rowCount ?? 0;
}
