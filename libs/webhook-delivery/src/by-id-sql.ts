/**
 * `status = 'pending'` for statements that find their rows by id (ADR 15, "Plans that do not
 * depend on a backlog"). Every partial index of the outbox is `WHERE status = 'pending'`; against
 * a constant the planner can use any of them, and when it believes few rows are pending it reads
 * all of them through one (a backlog of 50,000 made recording 8 results take 40 ms) instead of
 * the 8 rows by primary key. A sub-select is not a constant to it: only the primary key is left.
 */
export const STILL_PENDING = `(SELECT 'pending'::text)`;
