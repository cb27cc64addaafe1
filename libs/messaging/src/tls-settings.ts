import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { DeliveryTlsOptions } from '@pix/webhook-delivery';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * WEBHOOK_CLIENT_CERT / WEBHOOK_CLIENT_KEY / WEBHOOK_CA (PEM file paths) read and parsed at
 * start-up. Node's TLS ignores a CA file without certificates and only fails each handshake later,
 * so every delivery would go to retries and end dead: an unusable file is refused here by name.
 */
export function loadTlsSettings(env: Record<string, string | undefined>, problems: string[]): DeliveryTlsOptions | undefined {
  const read = (name: string): Buffer | undefined => {
    const file = env[name];
    if (!file) return undefined;
    try {
      return readFileSync(file);
    } catch (error) {
      problems.push(`${name}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      return undefined;
    }
  };
  const certificates = (name: string, pem: Buffer | undefined): X509Certificate[] | undefined => {
    if (!pem) return undefined;
    const blocks = pem.toString('latin1').match(PEM_CERTIFICATE) ?? [];
    if (blocks.length === 0) {
      problems.push(`${name}: ${env[name]} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
      return undefined;
    }
    try {
      return blocks.map((b) => new X509Certificate(b));
    } catch (error) {
      problems.push(`${name}: ${env[name]} holds a certificate that does not parse (${(error as Error).message})`);
      return undefined;
    }
  };
  const privateKey = (name: string, pem: Buffer | undefined): KeyObject | undefined => {
    if (!pem) return undefined;
    try {
      return createPrivateKey(pem);
    } catch (error) {
      problems.push(`${name}: ${env[name]} holds no usable unencrypted PEM private key (${(error as Error).message})`);
      return undefined;
    }
  };
  const cert = read('WEBHOOK_CLIENT_CERT');
  const key = read('WEBHOOK_CLIENT_KEY');
  const ca = read('WEBHOOK_CA');
  const chain = certificates('WEBHOOK_CLIENT_CERT', cert);
  const keyObject = privateKey('WEBHOOK_CLIENT_KEY', key);
  certificates('WEBHOOK_CA', ca);
  if ((env.WEBHOOK_CLIENT_CERT ? 1 : 0) !== (env.WEBHOOK_CLIENT_KEY ? 1 : 0)) problems.push('WEBHOOK_CLIENT_CERT and WEBHOOK_CLIENT_KEY go together');
  else if (chain && keyObject && !chain[0].checkPrivateKey(keyObject)) problems.push('WEBHOOK_CLIENT_KEY does not match the first certificate in WEBHOOK_CLIENT_CERT');
  if (!cert && !key && !ca) return undefined;
  return { ...(cert ? { cert } : {}), ...(key ? { key } : {}), ...(ca ? { ca } : {}) };
}
