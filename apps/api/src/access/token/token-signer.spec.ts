import { decodeProtectedHeader, SignJWT } from 'jose';
import { keyIdOf, TokenSigner } from './token-signer';

const OLD = Buffer.alloc(32, 1);
const NEW = Buffer.alloc(32, 2);
const now = new Date('2026-11-22T12:00:00Z');
const claims = { sub: 'erp', rid: 'loja1', scope: 'cobv.read', gen: 1 };

describe('access tokens across a signing-key rotation', () => {
  it('signs with the current key and names it by a hash prefix, never the key itself', async () => {
    const { token } = await new TokenSigner(NEW, () => now).sign(claims, 60);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'at+jwt', kid: keyIdOf(NEW) });
    expect(keyIdOf(NEW)).not.toContain(NEW.toString('base64url').slice(0, 8));
  });

  it("keeps the old key's tokens valid while it is listed as previous, and only then", async () => {
    const { token } = await new TokenSigner(OLD, () => now).sign(claims, 60);
    expect(await new TokenSigner(NEW, () => now, [OLD]).verify(token)).toMatchObject({ ok: true, claims });
    expect(await new TokenSigner(NEW, () => now).verify(token)).toEqual({ ok: false, reason: 'O token de acesso é inválido.' });
  });

  it('refuses a token whose key id names a listed key but whose signature is another key', async () => {
    const forged = await new SignJWT({ ...claims, iat: 1, exp: 4_000_000_000 }).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: keyIdOf(OLD) }).sign(Buffer.alloc(32, 9));
    expect((await new TokenSigner(NEW, () => now, [OLD]).verify(forged)).ok).toBe(false);
  });

  it('verifies a token without a key id (issued before key ids) with the current key only', async () => {
    const legacy = await new SignJWT({ ...claims, iat: Math.floor(now.getTime() / 1000), exp: Math.floor(now.getTime() / 1000) + 60 }).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).sign(NEW);
    expect((await new TokenSigner(NEW, () => now, [OLD]).verify(legacy)).ok).toBe(true);
    expect((await new TokenSigner(OLD, () => now, [NEW]).verify(legacy)).ok).toBe(false);
  });
});

describe('verified tokens are remembered, never past their expiry', () => {
  it('a token verified once is accepted again until exp, then refused as expired', async () => {
    let at = now;
    const signer = new TokenSigner(NEW, () => at);
    const { token } = await signer.sign(claims, 60);
    expect(await signer.verify(token)).toMatchObject({ ok: true, claims });
    at = new Date(now.getTime() + 59_000);
    expect((await signer.verify(token)).ok).toBe(true);
    at = new Date(now.getTime() + 60_000);
    expect(await signer.verify(token)).toEqual({ ok: false, reason: 'O token de acesso expirou.' });
  });

  it('accepts each token in one spelling only: padding or other trailing bits of a segment are refused', async () => {
    const signer = new TokenSigner(Buffer.alloc(32, 7), () => now);
    const { token } = await signer.sign(claims, 600);
    expect((await signer.verify(token)).ok).toBe(true);
    const [h, p, sig] = token.split('.');
    // 32 bytes of HMAC are 43 characters: the last carries 4 bits of the hash and 2 spare bits.
    const last = sig[sig.length - 1];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sameBytes = alphabet[alphabet.indexOf(last) ^ 1];
    expect(Buffer.from(sig.slice(0, -1) + sameBytes, 'base64url')).toEqual(Buffer.from(sig, 'base64url'));
    for (const variant of [`${token}=`, `${token}==`, `${h}.${p}.${sig.slice(0, -1)}${sameBytes}`, `${h}=.${p}.${sig}`])
      expect(await signer.verify(variant)).toEqual({ ok: false, reason: 'O token de acesso é inválido.' });
  });

  it('a forged token is not remembered as valid because a genuine one was', async () => {
    const signer = new TokenSigner(NEW, () => now);
    const { token } = await signer.sign(claims, 60);
    expect((await signer.verify(token)).ok).toBe(true);
    const [h, p] = token.split('.');
    expect((await signer.verify(`${h}.${p}.${'A'.repeat(43)}`)).ok).toBe(false);
  });
});
