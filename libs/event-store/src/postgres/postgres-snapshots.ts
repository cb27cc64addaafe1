import type { Pool } from 'pg';
import type { Migration } from './migrations';
import type { Snapshot, SnapshotStore } from '../snapshots';

/** One snapshot per stream: the latest one taken (a cache, see snapshots.ts). */
export const SNAPSHOTS_MIGRATION: Migration = {
  id: '0020-es-snapshots',
  up: async (client) =>
    void (await client.query(`
CREATE TABLE IF NOT EXISTS es_snapshots (
  stream_id text        PRIMARY KEY,
  version   text        NOT NULL,
  revision  bigint      NOT NULL,
  event_id  uuid        NOT NULL,
  state     json        NOT NULL,
  taken_at  timestamptz NOT NULL DEFAULT now()
)`)),
};

/**
 * Snapshots in PostgreSQL, whichever store holds the streams (the read models' database: with
 * EventStoreDB too). `json`, not `jsonb`: stored and returned as written, never queried into.
 */
export class PostgresSnapshotStore implements SnapshotStore {
  constructor(private readonly pool: Pool) {}

  async read(streamId: string, version: string): Promise<Snapshot | undefined> {
    const { rows } = await this.pool.query<{ revision: string; event_id: string; state: unknown }>({
      name: 'es_snapshot_read',
      text: 'SELECT revision::text, event_id::text, state FROM es_snapshots WHERE stream_id = $1 AND version = $2',
      values: [streamId, version],
    });
    return rows[0] && { revision: BigInt(rows[0].revision), eventId: rows[0].event_id, state: rows[0].state };
  }

  async write(streamId: string, version: string, snapshot: Snapshot): Promise<void> {
    // A slower writer with an older revision does not replace a newer snapshot; a new version does.
    await this.pool.query({
      name: 'es_snapshot_write',
      text: `INSERT INTO es_snapshots AS s (stream_id, version, revision, event_id, state) VALUES ($1, $2, $3::bigint, $4::uuid, $5::json)
ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version, revision = EXCLUDED.revision, event_id = EXCLUDED.event_id, state = EXCLUDED.state, taken_at = now()
WHERE s.version <> EXCLUDED.version OR s.revision < EXCLUDED.revision`,
      values: [streamId, version, snapshot.revision.toString(), snapshot.eventId, JSON.stringify(snapshot.state)],
    });
  }
}
