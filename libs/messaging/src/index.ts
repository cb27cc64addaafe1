export * from './cash-in-ports';
export * from './notifier-intake';
export * from './notifier-core';
export * from './notifier-intake.controller';
export * from './delivery-settings';
export * from './notifications.controller';
// Kept for test/bench/kafka-load.ts and test/support/kafka-client.ts, which create the topics
// through this name; the transport itself lives in @pix/messaging-kafka.
export { ensureCashInTopics } from '@pix/messaging-kafka';
