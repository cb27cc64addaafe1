import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import { createHash, randomUUID } from 'node:crypto';

/** The claims of our access tokens (a JWT, RFC 9068 profile, HS256). */
export interface AccessClaims {
  /** The client id. */
  sub: string;
  /** The receiver (tenant) the client acts for. */
  rid: string;
  /** Space-separated granted scopes. */
  scope: string;
  /** The client's secret generation when issued: a rotated secret retires older tokens. */
  gen: number;
  iat: number;
  exp: number;
  jti: string;
  /** RFC 8705: the thumbprint of the client certificate the token is bound to. */
  cnf?: { 'x5t#S256': string };
}

const TYP = 'at+jwt';

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; reason: string };

/** A key's id in the token header: a hash prefix, so the key itself is never revealed. */
export const keyIdOf = (key: Uint8Array) => createHash('sha256').update(key).digest('base64url').slice(0, 12);

/**
 * Signs access tokens with the current HMAC key and verifies them with it or with a previous
 * one (key rotation without logging everyone out: tokens of the old key live out their hour).
 * Token time is the wall clock, not the app's business Clock: tests move that one across years,
 * and a token's life is real time.
 */
/** How many verified tokens are remembered (a client reuses its token for up to an hour). */
const VERIFIED_CACHE_SIZE = 10_000;

export class TokenSigner {
  private readonly keyId: string;
  private readonly verifiers: Map<string, Uint8Array>;
  /**
   * Tokens whose signature already checked out, with their claims: a client sends the same token
   * on every request, and the HMAC over it was a measurable share of a request's CPU (issue 11).
   * Expiry is still checked on every use; the map's insertion order makes it evict the oldest.
   */
  private readonly verified = new Map<string, AccessClaims>();

  constructor(
    private readonly key: Uint8Array,
    private readonly now: () => Date = () => new Date(),
    previousKeys: Uint8Array[] = [],
  ) {
    this.keyId = keyIdOf(key);
    this.verifiers = new Map([key, ...previousKeys].map((k) => [keyIdOf(k), k]));
  }

  async sign(claims: Omit<AccessClaims, 'iat' | 'exp' | 'jti'>, ttlSeconds: number): Promise<{ token: string; claims: AccessClaims }> {
    const iat = Math.floor(this.now().getTime() / 1000);
    const full: AccessClaims = { ...claims, iat, exp: iat + ttlSeconds, jti: randomUUID() };
    const token = await new SignJWT({ ...full }).setProtectedHeader({ alg: 'HS256', typ: TYP, kid: this.keyId }).sign(this.key);
    return { token, claims: full };
  }

  /** Signature, algorithm, type and expiry; the claims' shape too. */
  async verify(token: string): Promise<VerifyResult> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp > Math.floor(this.now().getTime() / 1000)) return { ok: true, claims: known };
      this.verified.delete(token);
    }
    const result = await this.verifyUncached(token);
    if (result.ok) {
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, result.claims);
    }
    return result;
  }

  private async verifyUncached(token: string): Promise<VerifyResult> {
    // One spelling per token (RFC 7515 base64url, no padding): jose also took `TOKEN==` and a
    // signature with other trailing bits, so one token had several accepted strings (an audit).
    if (!isCanonicalCompactJws(token)) return { ok: false, reason: 'O token de acesso é inválido.' };
    try {
      const { kid } = decodeProtectedHeader(token);
      // Tokens from before key ids existed carry none: only the current key may verify them.
      const key = kid === undefined ? this.key : this.verifiers.get(kid);
      if (!key) return { ok: false, reason: 'O token de acesso é inválido.' };
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], typ: TYP, currentDate: this.now(), requiredClaims: ['sub', 'exp', 'iat'] });
      const p = payload as Partial<AccessClaims>;
      if (typeof p.rid !== 'string' || typeof p.scope !== 'string' || !Number.isInteger(p.gen)) return { ok: false, reason: 'O token de acesso não tem as claims exigidas.' };
      return { ok: true, claims: payload as unknown as AccessClaims };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { ok: false, reason: 'O token de acesso expirou.' };
      return { ok: false, reason: 'O token de acesso é inválido.' };
    }
  }
}

/** Three base64url segments without padding, each the exact encoding of its bytes (no stray trailing bits). */
function isCanonicalCompactJws(token: string): boolean {
  const parts = token.split('.');
  return parts.length === 3 && parts.every((part) => /^[A-Za-z0-9_-]*$/.test(part) && Buffer.from(part, 'base64url').toString('base64url') === part);
}
