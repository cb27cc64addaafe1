export * from './lotecobv-projection';
export * from './lotecobv-queries';
export * from './lotecobv-view';
