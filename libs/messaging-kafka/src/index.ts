export * from './kafka-client';
export * from './cash-in-publisher';
export * from './batch-server';
export * from './batch-context';
export * from './validated-batch';
export * from './cash-in-contract';
export * from './broker-probe';
export * from './consumer-lag';
