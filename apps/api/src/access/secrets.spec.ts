import { generateSecret, hashSecret, verifySecret } from './secrets';

describe('client secrets', () => {
  it('hashes with scrypt, salted, parameters in the stored string, and verifies only the right secret', async () => {
    const a = await hashSecret('sandbox-secret');
    const b = await hashSecret('sandbox-secret');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifySecret('sandbox-secret', a)).toBe(true);
    expect(await verifySecret('sandbox-secreT', a)).toBe(false);
    expect(a).not.toContain('sandbox-secret');
  });

  it('says false, never throws, for a malformed or abusive stored hash', async () => {
    const good = await hashSecret('x'.repeat(12));
    const parts = good.split('$');
    for (const stored of ['', 'bcrypt$x', good.replace('scrypt', 'scrypx'), [...parts.slice(0, 1), String(2 ** 24), ...parts.slice(2)].join('$'), [...parts.slice(0, 5), 'AAAA'].join('$')])
      expect(await verifySecret('x'.repeat(12), stored)).toBe(false);
  });

  it('compares exactly: trailing NULs (which HMAC key padding would ignore) never match', async () => {
    const stored = await hashSecret('sandbox-secret');
    expect(await verifySecret('sandbox-secret', stored)).toBe(true);
    for (const presented of ['sandbox-secret\u0000', 'sandbox-secret\u0000\u0000', 'sandbox-secre', 'sandbox-secret '])
      expect(await verifySecret(presented, stored)).toBe(false);
    await expect(hashSecret('a\u0000')).rejects.toThrow();
  });

  it('generates 32 random bytes as base64url', () => {
    const s = generateSecret();
    expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(s, 'base64url')).toHaveLength(32);
    expect(generateSecret()).not.toBe(s);
  });
});
