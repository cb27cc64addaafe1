export * from './types';
export * from './config';
export { notificationIdFor, uuidV5, NOTIFICATION_ID_NAMESPACE } from './notification-id';
export { decodeSigningSecret, signWebhook } from './signature';
export { isDelivered, parseRetryAfter, decideAfterAttempt } from './retry-policy';
export { BATCH_DDL, OUTBOX_DDL, OUTBOX_MIGRATIONS, ensureOutboxSchema } from './schema';
export { NotificationOutbox } from './notification-outbox';
export { DeliveryWorker } from './delivery-worker';
export { isPrivateAddress, unsafeTargetReason, safeLookup } from './safe-target';
