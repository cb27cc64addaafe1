export * from './pix-projection';
export * from './pix-queries';
