export * from './cash-in-bus';
export * from './consume-cash-in';
export * from './kafka';
export * from './notifier-intake';
export * from './delivery-settings';
export * from './notifier-core';
export * from './notifications.controller';
export * from './consumer-lag';
