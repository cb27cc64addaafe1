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
