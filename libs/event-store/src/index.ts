export * from './port';
export * from './subscribe';
export * from './postgres';
export * from './eventstoredb';
