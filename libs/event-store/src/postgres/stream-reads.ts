import type { Pool } from 'pg';
import { SharedLookups } from '../round-trip-sharing';
import { READ_STREAM_FROM_SQL, READ_STREAM_SQL, READ_STREAMS_SQL } from './append-sql';
import type { EventRow } from './rows';

/**
 * Stream reads made while the loop is busy (the same turn, or while 4 reads are out) share one
 * statement, as appends share one in group commit: under concurrent settlements and updates,
 * each read costs a share of a round trip. A read is sent after it was asked for, so it sees
 * every append that finished before. A lone read runs the single-stream statement; a second
 * reader of one stream in a batch gets its own copy of the rows.
 */
export class StreamReads {
  private readonly lookups: SharedLookups<EventRow[]>;

  constructor(private readonly pool: Pool) {
    this.lookups = new SharedLookups((ids) => this.fetch(ids), { copy: structuredClone });
  }

  async read(streamId: string, fromRevision = 0n): Promise<EventRow[]> {
    // A read from a snapshot's revision is a long stream's: rare, and its own statement.
    if (fromRevision > 0n) return (await this.pool.query<EventRow>({ name: 'es_read_stream_from', text: READ_STREAM_FROM_SQL, values: [streamId, fromRevision.toString()] })).rows;
    return (await this.lookups.get(streamId)) ?? [];
  }

  private async fetch(ids: string[]): Promise<Map<string, EventRow[]>> {
    const { rows } =
      ids.length === 1
        ? await this.pool.query<EventRow>({ name: 'es_read_stream', text: READ_STREAM_SQL, values: ids })
        : await this.pool.query<EventRow>({ name: 'es_read_streams', text: READ_STREAMS_SQL, values: [ids] });
    const byStream = new Map<string, EventRow[]>();
    for (const row of rows) {
      const events = byStream.get(row.stream_id);
      if (events) events.push(row);
      else byStream.set(row.stream_id, [row]);
    }
    return byStream;
  }
}
