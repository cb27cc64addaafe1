import { createHmac } from 'node:crypto';

/** Decodes a Standard Webhooks secret (`whsec_<base64>`; the bare base64 form is accepted too). */
export function decodeSigningSecret(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length === 0 || bytes.toString('base64').replace(/=+$/, '') !== encoded.replace(/=+$/, '')) {
    throw new Error('invalid signingSecret: expected "whsec_" followed by base64');
  }
  return bytes;
}

/** Standard Webhooks v1 signature: base64 HMAC-SHA256 over `<id>.<timestamp>.<body>`. */
export function signWebhook(secretBytes: Buffer, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretBytes).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}
