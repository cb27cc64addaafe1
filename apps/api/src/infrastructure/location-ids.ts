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

/** Ids taken from the sequence per round trip: a request then costs no statement for its location (issue 11). */
const BLOCK = 100;

/**
 * Location ids from a PostgreSQL sequence: unique across processes, never reused (an unused
 * rest of a block is a gap, as a rolled-back nextval always was). Taken in blocks of BLOCK with
 * one statement; concurrent requests share a refill. Locations are scheme-less (see payloadLocation).
 */
export class SequenceLocationIds implements LocationIds {
  private ids: number[] = [];
  private refill?: Promise<void>;

  constructor(
    private readonly pool: Pool,
    private readonly host: string,
    private readonly block = BLOCK,
  ) {}

  static async create(pool: Pool, host: string): Promise<SequenceLocationIds> {
    await migrate(pool, [LOCATION_IDS_MIGRATION]);
    return new SequenceLocationIds(pool, host);
  }

  async next(): Promise<{ id: number; location: string }> {
    while (this.ids.length === 0) await (this.refill ??= this.take().finally(() => (this.refill = undefined)));
    return { id: this.ids.shift()!, location: `${this.host}/qr/v2/cobv/${randomUUID().replace(/-/g, '')}` };
  }

  private async take(): Promise<void> {
    const { rows } = await this.pool.query<{ id: string }>({
      name: 'location_ids_block',
      text: `SELECT nextval('cobv_location_id_seq')::text AS id FROM generate_series(1, $1::int)`,
      values: [this.block],
    });
    this.ids.push(...rows.map((r) => Number(r.id)).sort((a, b) => a - b));
  }
}
