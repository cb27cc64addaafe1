export * from './types';
export * from './config';
export { notificationIdFor, uuidV5, NOTIFICATION_ID_NAMESPACE } from './notification-id';
export { decodeSigningSecret, signWebhook } from './signature';
export { isDelivered, parseRetryAfter, decideAfterAttempt } from './retry-policy';
export { OUTBOX_DDL, OUTBOX_MIGRATION, ensureOutboxSchema } from './schema';
export { NotificationOutbox } from './notification-outbox';
export { DeliveryWorker } from './delivery-worker';
export { isPrivateAddress, unsafeTargetReason, safeLookup } from './safe-target';
