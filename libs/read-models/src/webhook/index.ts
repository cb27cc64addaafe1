export * from './webhook-projection';
