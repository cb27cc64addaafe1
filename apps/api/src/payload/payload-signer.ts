import { createHash, createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, CompactSign, exportJWK, type JWK } from 'jose';
import type { PayloadSigningConfig } from '../config/config';

/** Where the JWKS is served, on the location host: `jku` of every payload JWS. */
export const JWKS_PATH = '/qr/v2/jwks';

export interface JsonWebKeySet {
  keys: JWK[];
}

/**
 * Signs payload locations as the API Pix's example header shows (RS256, typ, kid, x5t, jku) and
 * publishes the public keys (with their x5c chains) at `jku`. The previous certificate, while
 * rotating, is published but never signs.
 */
export class PayloadSigner {
  private constructor(
    private readonly key: KeyObject,
    private readonly header: Record<string, string>,
    readonly jwks: JsonWebKeySet,
  ) {}

  static async create(material: PayloadSigningConfig, locationHost: string): Promise<PayloadSigner> {
    const current = await publicJwk(material.certChainPem);
    const previous = material.previousCertChainPem ? [await publicJwk(material.previousCertChainPem)] : [];
    const header = {
      alg: 'RS256',
      // As the contract's example header writes it.
      typ: 'JWS',
      kid: current.kid!,
      jku: `https://${locationHost}${JWKS_PATH}`,
      x5t: current.x5t!,
      'x5t#S256': current['x5t#S256'] as string,
    };
    const keys = [current, ...previous.filter((k) => k.kid !== current.kid)];
    return new PayloadSigner(createPrivateKey(material.keyPem), header, { keys });
  }

  /** The protected header every payload carries (kid, jku, thumbprints). */
  get protectedHeader(): Readonly<Record<string, string>> {
    return this.header;
  }

  /** Compact JWS of the JSON payload. */
  async sign(payload: unknown): Promise<string> {
    return new CompactSign(Buffer.from(JSON.stringify(payload), 'utf8')).setProtectedHeader(this.header as never).sign(this.key);
  }
}

/** The leaf's public key as a JWK, identified by its RFC 7638 thumbprint, with x5c and both x5t thumbprints. */
async function publicJwk(chainPem: string[]): Promise<JWK> {
  const chain = chainPem.map((pem) => new X509Certificate(pem));
  const jwk = await exportJWK(chain[0].publicKey);
  const leaf = chain[0].raw;
  return {
    ...jwk,
    kid: await calculateJwkThumbprint(jwk, 'sha256'),
    use: 'sig',
    alg: 'RS256',
    x5c: chain.map((c) => c.raw.toString('base64')),
    x5t: createHash('sha1').update(leaf).digest('base64url'),
    'x5t#S256': createHash('sha256').update(leaf).digest('base64url'),
  };
}
