import type { Pool } from 'pg';
import type { EventStore } from '@pix/event-store';

/** A stream nobody writes: reading it asks the event store to answer, nothing more. */
const PROBE_STREAM = 'probe-dependencies';

/**
 * Whether what a cash-in consumer's handler needs answers now: PostgreSQL (read models, outbox)
 * and the event store (PostgreSQL too, or EventStoreDB). A consumer dead-letters a message its
 * handler keeps failing on only while this holds, so an outage never sends work to the dead-letter topic.
 */
export function dependenciesAnswer(pool: Pool, store: EventStore): () => Promise<boolean> {
  return async () => {
    try {
      await pool.query('SELECT 1');
      await store.readStream(PROBE_STREAM);
      return true;
    } catch {
      return false;
    }
  };
}
