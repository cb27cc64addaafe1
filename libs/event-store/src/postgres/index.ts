export * from './postgres-event-store';
export * from './positions';
export * from './transaction';
export { EVENT_STORE_DDL, EVENT_STORE_MIGRATIONS } from './schema';
export * from './migrations';
export * from './connection-errors';
export type { StoreLogger } from './append-listener';
export * from './embedded-postgres';
export * from './inline';
