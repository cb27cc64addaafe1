/** Injection tokens for what the composition root builds from the validated configuration. */
export const CONFIG = Symbol('AppConfig');
export const EVENT_STORE = Symbol('EventStore');
export const READ_DB = Symbol('ReadModelPool');
export const CLOCK = Symbol('Clock');
export const LOCATION_IDS = Symbol('LocationIds');
export const PROJECTIONS = Symbol('Projections');
export const CASH_IN_PUBLISHER = Symbol('CashInPublisher');
export const RECEIVER_DIRECTORY = Symbol('ReceiverDirectory');
/** The same AccessDirectory as RECEIVER_DIRECTORY, with clients (for the guard and the token endpoint). */
export const ACCESS_DIRECTORY = Symbol('AccessDirectory');
export const TOKEN_SIGNER = Symbol('TokenSigner');
/** Background parts (Kafka consumers) report their state for the readiness probe. */
export const READINESS = Symbol('Readiness');
/** Resolves once the start-up migration has run (everything touching tables depends on it). */
export const SCHEMA = Symbol('Schema');
/** Snapshots of long streams (a batch's), in the read models' database. */
export const SNAPSHOTS = Symbol('SnapshotStore');
