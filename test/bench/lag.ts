import type { Pool } from 'pg';
import { cobvStreamId } from '@pix/domain';
import { RECEBEDOR } from './fixtures';
import { percentile } from './load';

/**
 * Projection lag, measured inside PostgreSQL on one clock. A bench-only row trigger on the
 * runner's checkpoint table logs every checkpoint write with clock_timestamp() (the moment the
 * runner's transaction writes it, after applying the page). An event's lag is the time from its
 * `recorded_at` (clock_timestamp() when the append's INSERT ran) to the first logged checkpoint
 * at or past its position. Commit of either transaction is not included (sub-millisecond here).
 */
export async function installCheckpointLog(pool: Pool): Promise<void> {
  await pool.query(`
    CREATE TABLE IF NOT EXISTS bench_checkpoint_log (at timestamptz NOT NULL DEFAULT clock_timestamp(), position text NOT NULL);
    CREATE TABLE IF NOT EXISTS projection_checkpoints (name text PRIMARY KEY, position text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now());
    CREATE OR REPLACE FUNCTION bench_log_checkpoint() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN INSERT INTO bench_checkpoint_log (position) VALUES (NEW.position); RETURN NULL; END $$;
    CREATE OR REPLACE TRIGGER bench_log_checkpoint AFTER INSERT OR UPDATE ON projection_checkpoints
      FOR EACH ROW WHEN (NEW.name = 'cobv') EXECUTE FUNCTION bench_log_checkpoint();`);
}

export interface Lag {
  events: number;
  p50: number;
  p99: number;
  max: number;
  /** Events no logged checkpoint reached (should be 0). */
  missing: number;
  /** Checkpoint writes (one per applied page) that covered these events. */
  pages: number;
}

interface Pos {
  tx: bigint;
  gp: bigint;
}
const parse = (p: string): Pos => {
  const [tx, gp] = p.split(':');
  return { tx: BigInt(tx), gp: BigInt(gp) };
};
const cmp = (a: Pos, b: Pos) => (a.tx !== b.tx ? (a.tx < b.tx ? -1 : 1) : a.gp !== b.gp ? (a.gp < b.gp ? -1 : 1) : 0);

/** Waits (up to 10 s) until the cobv checkpoint has passed the last event appended so far. */
export async function waitForCatchUp(pool: Pool): Promise<void> {
  const last = await pool.query<{ p: string }>(
    `SELECT transaction_id::text || ':' || global_position::text AS p FROM es_events ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
  );
  if (last.rows.length === 0) return;
  const target = parse(last.rows[0].p);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { rows } = await pool.query<{ position: string }>(`SELECT position FROM projection_checkpoints WHERE name = 'cobv'`);
    if (rows[0] && cmp(parse(rows[0].position), target) >= 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Lag of every event of the streams `cobv-{rid}/<prefix>…` (one measured phase). */
export async function projectionLag(pool: Pool, streamPrefix: string): Promise<Lag> {
  const events = await pool.query<{ tx: string; gp: string; t: number }>(
    `SELECT transaction_id::text AS tx, global_position::text AS gp, extract(epoch FROM recorded_at) * 1000 AS t
     FROM es_events WHERE stream_id LIKE $1`,
    [`${cobvStreamId(RECEBEDOR.id, streamPrefix)}%`],
  );
  const log = await pool.query<{ position: string; t: number }>(
    `SELECT position, extract(epoch FROM at) * 1000 AS t FROM bench_checkpoint_log ORDER BY at`,
  );
  const checkpoints = log.rows.map((r) => ({ pos: parse(r.position), t: Number(r.t) }));
  const sorted = events.rows.map((r) => ({ pos: parse(`${r.tx}:${r.gp}`), t: Number(r.t) })).sort((a, b) => cmp(a.pos, b.pos));
  // Checkpoints only move forward, so one merge pass pairs each event with the first checkpoint past it.
  const lags: number[] = [];
  const pages = new Set<number>();
  let missing = 0;
  let i = 0;
  for (const e of sorted) {
    while (i < checkpoints.length && cmp(checkpoints[i].pos, e.pos) < 0) i++;
    if (i === checkpoints.length) missing++;
    else {
      lags.push(checkpoints[i].t - e.t);
      pages.add(i);
    }
  }
  const s = Float64Array.from(lags).sort();
  return { events: lags.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s.length ? s[s.length - 1] : NaN, missing, pages: pages.size };
}

/** Whether the cobv read model is written inline (ADR 14): its checkpoint says so. */
export async function isInline(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query<{ position: string }>(`SELECT position FROM projection_checkpoints WHERE name = 'cobv'`);
  return rows[0]?.position === 'inline';
}

/** The charges of one measured phase and their rows in rm_cobv (equal when every 2xx left its row). */
export async function inlineVisibility(pool: Pool, streamPrefix: string): Promise<{ streams: number; rows: number }> {
  const stream = cobvStreamId(RECEBEDOR.id, streamPrefix);
  const { rows } = await pool.query<{ streams: number; rows: number }>(
    `SELECT (SELECT count(DISTINCT stream_id)::int FROM es_events WHERE stream_id LIKE $1) AS streams,
            (SELECT count(*)::int FROM rm_cobv WHERE id LIKE $2) AS rows`,
    [`${stream}%`, `${stream.slice('cobv-'.length)}%`],
  );
  return rows[0];
}
