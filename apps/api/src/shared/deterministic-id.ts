import { createHash } from 'node:crypto';

const NAMESPACE = 'pix-cobv:';

/**
 * A UUID (version 5 layout, SHA-1) that is always the same for the same name: appending an
 * event under it twice is a no-op in the event store, which makes retried work idempotent.
 */
export function deterministicId(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE + name).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
