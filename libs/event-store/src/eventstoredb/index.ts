import type { EventStore } from '../port';
import type { EventStoreDbEventStoreOptions } from './eventstoredb-event-store';

export type { EventStoreDbEventStoreOptions };

/**
 * The EventStoreDB adapter, loaded when first used: its gRPC client is ~20 MiB of memory that a
 * PostgreSQL deployment would otherwise carry for nothing (issue 11's memory budget). Tests of
 * the adapter itself import `./eventstoredb-event-store`.
 */
export const EventStoreDbEventStore = {
  fromConnectionString(connectionString: string, options?: EventStoreDbEventStoreOptions): EventStore {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous on purpose: loaded on first use
    const { EventStoreDbEventStore: Adapter } = require('./eventstoredb-event-store') as typeof import('./eventstoredb-event-store');
    return Adapter.fromConnectionString(connectionString, options);
  },
};

/**
 * Why the pinned client would refuse this connection string at first use (undefined: it takes
 * it), for the start-up configuration check. It parses only esdb:// and esdb+discover:// and checks
 * each option's value. Loads the client (only where one is configured, so it will be used). The
 * answer gives the position and what was expected, never the text there (it may be a password).
 */
export function eventStoreConnectionStringProblem(connectionString: string): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only where EventStoreDB is configured
  const { EventStoreDBClient } = require('@eventstore/db-client') as typeof import('@eventstore/db-client');
  try {
    EventStoreDBClient.connectionString(connectionString); // parses and builds; connects on first call only
    return undefined;
  } catch (error) {
    const { location, expected } = error as { location?: [number, number]; expected?: string };
    if (location && expected) return `EVENTSTORE_CONNECTION_STRING: at character ${location[0] + 1}, expected ${expected}`;
    return `EVENTSTORE_CONNECTION_STRING is not usable: ${error instanceof Error ? error.message : String(error)}`;
  }
}
