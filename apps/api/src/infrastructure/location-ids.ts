import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { LocationIds } from '../shared/ports';

/** Location ids from a PostgreSQL sequence: unique across processes, never reused. Locations are scheme-less (see payloadLocation). */
export class SequenceLocationIds implements LocationIds {
  constructor(
    private readonly pool: Pool,
    private readonly host: string,
  ) {}

  static async create(pool: Pool, host: string): Promise<SequenceLocationIds> {
    await pool.query('CREATE SEQUENCE IF NOT EXISTS cobv_location_id_seq');
    return new SequenceLocationIds(pool, host);
  }

  async next(): Promise<{ id: number; location: string }> {
    const { rows } = await this.pool.query<{ id: string }>(`SELECT nextval('cobv_location_id_seq')::text AS id`);
    return { id: Number(rows[0].id), location: `${this.host}/qr/v2/cobv/${randomUUID().replace(/-/g, '')}` };
  }
}
