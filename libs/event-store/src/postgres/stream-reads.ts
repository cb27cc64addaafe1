import type { Pool } from 'pg';
import { RoundTripSharing } from '../round-trip-sharing';
import { READ_STREAM_SQL } from './append-sql';
import type { EventRow } from './rows';

const READ_STREAMS_SQL = `
SELECT event_id::text, stream_id, stream_revision::text, event_type, data, metadata, recorded_at,
       global_position::text, transaction_id::text
FROM es_events WHERE stream_id = ANY($1::text[]) ORDER BY stream_id, es_events.stream_revision`;

interface Waiter {
  resolve(rows: EventRow[]): void;
  reject(error: unknown): void;
}

/**
 * Stream reads made while the loop is busy (the same turn, or while `maxInFlight` reads are out)
 * share one statement, as appends share one in group commit: under concurrent settlements and
 * updates, each read costs a share of a round trip. A read is sent after it was asked for, so
 * it sees every append that finished before. A lone read runs the single-stream statement.
 */
export class StreamReads {
  private readonly pending = new Map<string, Waiter[]>();
  private readonly sharing: RoundTripSharing;

  constructor(private readonly pool: Pool, maxInFlight = 4, private readonly maxBatch = 64) {
    this.sharing = new RoundTripSharing({ hasPending: () => this.pending.size > 0, sendNext: () => this.send(this.take()) }, maxInFlight);
  }

  read(streamId: string): Promise<EventRow[]> {
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(streamId);
      if (waiters) waiters.push({ resolve, reject });
      else this.pending.set(streamId, [{ resolve, reject }]);
      this.sharing.schedule();
    });
  }

  private take(): Map<string, Waiter[]> {
    const batch = new Map<string, Waiter[]>();
    for (const [id, waiters] of this.pending) {
      if (batch.size >= this.maxBatch) break;
      batch.set(id, waiters);
      this.pending.delete(id);
    }
    return batch;
  }

  private async send(batch: Map<string, Waiter[]>): Promise<void> {
    try {
      const ids = [...batch.keys()];
      const { rows } =
        ids.length === 1
          ? await this.pool.query<EventRow>({ name: 'es_read_stream', text: READ_STREAM_SQL, values: ids })
          : await this.pool.query<EventRow>({ name: 'es_read_streams', text: READ_STREAMS_SQL, values: [ids] });
      const byStream = new Map<string, EventRow[]>(ids.map((id) => [id, []]));
      for (const row of rows) byStream.get(row.stream_id)?.push(row);
      // Each caller gets its own rows (two readers of one stream in a batch: a copy for the second).
      for (const [id, waiters] of batch) waiters.forEach((w, i) => w.resolve(i === 0 ? byStream.get(id)! : structuredClone(byStream.get(id)!)));
    } catch (error) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
    }
  }
}
