export * from './port';
export * from './typed';
export * from './command-handler';
export * from './subscribe';
export * from './postgres';
export * from './eventstoredb';
export * from './round-trip-sharing';
export * from './snapshots';
