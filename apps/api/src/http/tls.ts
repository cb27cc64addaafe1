import { readFileSync } from 'node:fs';
import type { SecureContextOptions, TlsOptions } from 'node:tls';
import { Logger } from '@nestjs/common';
import type { TlsConfig } from '../config/config';

/**
 * Server TLS options from the configured PEM files. With a client CA, a certificate signed by it
 * is required before any HTTP is spoken (mTLS): clients without one are refused in the handshake,
 * except on a connection made to the payload location's host name (SNI `locationHostname`),
 * which payers' banks reach without a certificate (see locationOnlyWithoutCertificate).
 */
export function httpsOptions(tls: TlsConfig, locationHostname?: string): TlsOptions & SecureContextOptions {
  return {
    cert: readFileSync(tls.certFile),
    key: readFileSync(tls.keyFile),
    minVersion: 'TLSv1.2',
    // A handshake not finished by then is dropped (Node's default is 120 s, four times the
    // deadline of a whole HTTP request: an audit, 2026-11-27).
    handshakeTimeout: 10_000,
    ...(tls.clientCaFile
      ? { ca: readFileSync(tls.clientCaFile), requestCert: true, rejectUnauthorized: true, ...(locationHostname ? { SNICallback: noCertificateFor(locationHostname) } : {}) }
      : {}),
  };
}

interface ServerTlsSocket {
  _rejectUnauthorized?: boolean;
  _handle?: { setVerifyMode?: (request: boolean, reject: boolean) => void } | null;
}

let unsupportedLogged = false;

/**
 * Node calls the SNI callback on the connection's TLSSocket while reading the ClientHello, before
 * the server asks for a certificate: for the location's host name the connection is told not to
 * refuse its absence. This reaches into Node's TLSSocket (no public API sets
 * the verify mode per connection); where that is missing, the location needs a certificate like
 * everything else (the safe side) and the log says so once. test/e2e/mtls.int.ts checks both.
 */
function noCertificateFor(hostname: string) {
  const wanted = hostname.toLowerCase();
  return function (this: ServerTlsSocket, servername: string, done: (error: Error | null) => void): void {
    if (servername.toLowerCase() === wanted) {
      if (typeof this?._handle?.setVerifyMode === 'function' && '_rejectUnauthorized' in this) {
        // Still asked for (a client of the API on the same host name presents it and is served
        // as anywhere else), no longer required.
        this._handle.setVerifyMode(true, false);
        this._rejectUnauthorized = false;
      } else if (!unsupportedLogged) {
        unsupportedLogged = true;
        new Logger('TLS').warn(`this Node.js cannot waive the client certificate per connection: ${hostname} (the payload location) needs one too`);
      }
    }
    done(null); // the server's own certificate and context
  };
}

/** For the start-up log: which of plain HTTP, TLS or mTLS is being served. */
export function tlsMode(tls: TlsConfig | undefined): 'off' | 'tls' | 'mtls' {
  if (!tls) return 'off';
  return tls.clientCaFile ? 'mtls' : 'tls';
}
