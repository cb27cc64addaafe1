import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secrets this process has already verified with scrypt, so that a client asking again for a
 * token (every token's lifetime, on each of its instances) does not wait behind a flood of
 * wrong secrets for one of the two scrypt slots (ChecksPerAddress, ADR 8). Per client: the stored
 * hash it was verified against and an HMAC of the presented secret under a key made at start-up
 * and never kept anywhere else. Only a secret that scrypt accepted is remembered, so a guess never
 * takes this path; a rotated secret changes the stored hash, which the caller compares with a
 * fresh read before trusting a match. Bounded: the oldest client is forgotten first.
 */
export class VerifiedSecrets {
  private readonly key = randomBytes(32);
  private readonly entries = new Map<string, { secretHash: string; mac: Buffer }>();

  constructor(private readonly max = 10_000) {}

  /** The stored hash `secret` was verified against for `clientId`, or undefined. */
  matches(clientId: string, secret: string): string | undefined {
    const entry = this.entries.get(clientId);
    if (!entry) return undefined;
    return timingSafeEqual(this.mac(entry.secretHash, secret), entry.mac) ? entry.secretHash : undefined;
  }

  remember(clientId: string, secretHash: string, secret: string): void {
    this.entries.delete(clientId);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(clientId, { secretHash, mac: this.mac(secretHash, secret) });
  }

  // The stored hash is part of the message: an entry never matches against another hash's secret.
  private mac(secretHash: string, secret: string): Buffer {
    return createHmac('sha256', this.key).update(secretHash).update('\u0000').update(secret, 'utf8').digest();
  }
}
