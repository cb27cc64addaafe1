import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/**
 * RFC 8705 `x5t#S256`: base64url SHA-256 of the DER client certificate the TLS layer verified on
 * this connection; undefined over plain HTTP or without a verified certificate.
 */
export function clientCertificateThumbprint(raw: IncomingMessage): string | undefined {
  const socket = raw.socket as Partial<TLSSocket>;
  if (typeof socket.getPeerCertificate !== 'function' || socket.authorized !== true) return undefined;
  const certificate = socket.getPeerCertificate();
  if (!certificate?.raw?.length) return undefined;
  return createHash('sha256').update(certificate.raw).digest('base64url');
}
