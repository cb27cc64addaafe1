import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { migrate, type Migration } from '@pix/event-store';
import type { LocationIds } from '../shared/ports';

/** The sequence behind location ids, created under the one schema lock (two instances starting together raced on it). */
export const LOCATION_IDS_MIGRATION: Migration = {
  id: '0002-cobv-location-ids',
  up: async (client) => {
    await client.query('CREATE SEQUENCE IF NOT EXISTS cobv_location_id_seq');
  },
};

/** Location ids from a PostgreSQL sequence: unique across processes, never reused. Locations are scheme-less (see payloadLocation). */
export class SequenceLocationIds implements LocationIds {
  constructor(
    private readonly pool: Pool,
    private readonly host: string,
  ) {}

  static async create(pool: Pool, host: string): Promise<SequenceLocationIds> {
    await migrate(pool, [LOCATION_IDS_MIGRATION]);
    return new SequenceLocationIds(pool, host);
  }

  async next(): Promise<{ id: number; location: string }> {
    const { rows } = await this.pool.query<{ id: string }>(`SELECT nextval('cobv_location_id_seq')::text AS id`);
    return { id: Number(rows[0].id), location: `${this.host}/qr/v2/cobv/${randomUUID().replace(/-/g, '')}` };
  }
}
