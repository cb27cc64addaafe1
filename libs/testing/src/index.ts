export * from './postgres';
export * from './embedded';
export * from './event-store-contract';
export * from './openapi';
export * from './integer-settings';
export * from './misspelt-settings';
