export { EventStoreDbEventStore, type EventStoreDbEventStoreOptions } from './eventstoredb-event-store';
// Prefixed names: the package barrel re-exports every adapter with `export *`.
export {
  comparePositions as compareEsdbPositions,
  decodePosition as decodeEsdbPosition,
  encodePosition as encodeEsdbPosition,
} from './mapping';
