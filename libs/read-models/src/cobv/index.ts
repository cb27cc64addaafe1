export * from './cobv-projection';
export * from './cobv-view';
export * from './cobv-queries';
export * from './cobv-lookups';
