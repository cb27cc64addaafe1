export * from './loc-projection';
export * from './loc-queries';
