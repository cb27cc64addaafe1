import { createHmac } from 'node:crypto';

/** Base64: groups of four, padding (optional) only to complete the last group. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

/**
 * Decodes a Standard Webhooks secret (`whsec_<base64>`; the bare base64 form is accepted too).
 * Padding beyond the last group is refused: Buffer.from ignores it, so `AAAA====…` would pass
 * a length check on the text and still decode to a 3-byte key.
 */
export function decodeSigningSecret(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (encoded === '' || !BASE64.test(encoded)) throw new Error('invalid signingSecret: expected "whsec_" followed by base64');
  return Buffer.from(encoded, 'base64');
}

/** Standard Webhooks v1 signature: base64 HMAC-SHA256 over `<id>.<timestamp>.<body>`. */
export function signWebhook(secretBytes: Buffer, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretBytes).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}
