export * from './cash-in-ports';
export * from './notifier-intake';
export * from './key-history';
export * from './notifier-core';
export * from './notifier-intake.controller';
export * from './delivery-settings';
export * from './notifications.controller';
export * from './dependencies-answer';
