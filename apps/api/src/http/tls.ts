import { readFileSync } from 'node:fs';
import type { SecureContextOptions, TlsOptions } from 'node:tls';
import type { TlsConfig } from '../config/config';

/**
 * Server TLS options from the configured PEM files. With a client CA, a certificate signed by it
 * is required before any HTTP is spoken (mTLS): clients without one are refused in the handshake.
 */
export function httpsOptions(tls: TlsConfig): TlsOptions & SecureContextOptions {
  return {
    cert: readFileSync(tls.certFile),
    key: readFileSync(tls.keyFile),
    minVersion: 'TLSv1.2',
    ...(tls.clientCaFile ? { ca: readFileSync(tls.clientCaFile), requestCert: true, rejectUnauthorized: true } : {}),
  };
}

/** For the start-up log: which of plain HTTP, TLS or mTLS is being served. */
export function tlsMode(tls: TlsConfig | undefined): 'off' | 'tls' | 'mtls' {
  if (!tls) return 'off';
  return tls.clientCaFile ? 'mtls' : 'tls';
}
