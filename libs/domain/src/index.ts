export * from './errors';
export * from './shared';
export * from './cobv';
export * from './decider';
export * from './lotecobv';
export * from './webhook';
export * from './pix';
export * from './access';
