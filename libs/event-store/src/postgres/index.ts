export * from './postgres-event-store';
export * from './positions';
export * from './transaction';
export { EVENT_STORE_DDL } from './schema';
export * from './embedded-postgres';
