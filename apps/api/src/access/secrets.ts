import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Client secrets are stored only as a slow, salted scrypt hash. The parameters travel inside
 * the stored string (`scrypt$N$r$p$salt$hash`), so they can be raised later without breaking
 * stored secrets. Secrets are never logged.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
// Refuse parameters that would let a tampered record exhaust memory or CPU.
const MAX_N = 2 ** 20;

const scryptAsync = (secret: string, salt: Buffer, length: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scrypt(secret, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))));

const memoryFor = (N: number, r: number) => 128 * N * r * 2;

// scrypt keys HMAC-SHA256 with the secret, and HMAC pads short keys with zero bytes: "s" and
// "s\0" hash alike. No secret of ours holds a NUL, so one presented with a NUL never matches.
const hasNul = (secret: string) => secret.includes('\u0000');

export async function hashSecret(secret: string): Promise<string> {
  if (hasNul(secret)) throw new Error('a client secret cannot contain U+0000');
  const salt = randomBytes(16);
  const key = await scryptAsync(secret, salt, KEY_LENGTH, { ...PARAMS, maxmem: memoryFor(PARAMS.N, PARAMS.r) });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time comparison; false (never an exception) for a malformed stored hash. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every(Number.isInteger) || N < 2 || N > MAX_N || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return false;
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  if (expected.length < 16) return false;
  const actual = await scryptAsync(secret, salt, expected.length, { N, r, p, maxmem: memoryFor(N, r) });
  // The hash is computed either way, so a refusal takes as long as a comparison.
  return timingSafeEqual(actual, expected) && !hasNul(secret);
}

/** A new client secret: 32 random bytes, base64url (43 characters). */
export const generateSecret = () => randomBytes(32).toString('base64url');

/**
 * A hash no secret matches, verified when the client is unknown, so the answer takes as long
 * as for a known client and does not reveal which client ids exist.
 */
let decoy: Promise<string> | undefined;
export const decoyHash = () => (decoy ??= hashSecret(randomBytes(32).toString('base64url')));
