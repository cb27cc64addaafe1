import { createHash } from 'node:crypto';

/** Fixed namespace of this service's notification ids; changing it would change every id. */
export const NOTIFICATION_ID_NAMESPACE = '6f1c2b7e-3d4a-5b8c-9e0f-a1b2c3d4e5f6';

/** RFC 9562 UUID version 5 (SHA-1, name-based): the same name always yields the same UUID. */
export function uuidV5(name: string, namespace: string): string {
  const bytes = createHash('sha1').update(namespaceBytes(namespace)).update(name, 'utf8').digest();
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// One id per cash-in at intake: the namespace is parsed once, not per id.
let lastNamespace: { text: string; bytes: Buffer } | undefined;
function namespaceBytes(namespace: string): Buffer {
  if (lastNamespace?.text === namespace) return lastNamespace.bytes;
  const bytes = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (bytes.length !== 16) throw new Error(`invalid namespace UUID "${namespace}"`);
  lastNamespace = { text: namespace, bytes };
  return bytes;
}

/**
 * The notification id of a cash-in: derived from its endToEndId, so consuming the same cash-in
 * twice (or rebuilding the outbox) gives the same `webhook-id` and receivers can deduplicate.
 */
export function notificationIdFor(endToEndId: string): string {
  return uuidV5(endToEndId, NOTIFICATION_ID_NAMESPACE);
}
