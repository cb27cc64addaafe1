import { VerifiedSecrets } from './verified-secrets';

describe('secrets verified before', () => {
  it('match only the same client, secret and stored hash', () => {
    const verified = new VerifiedSecrets();
    verified.remember('erp', 'scrypt$hash1', 's3cret');
    expect(verified.matches('erp', 's3cret')).toBe('scrypt$hash1');
    expect(verified.matches('erp', 's3cret\u0000')).toBeUndefined();
    expect(verified.matches('erp', 'S3cret')).toBeUndefined();
    expect(verified.matches('other', 's3cret')).toBeUndefined();
    verified.remember('erp', 'scrypt$hash2', 'n3w');
    expect(verified.matches('erp', 's3cret')).toBeUndefined();
    expect(verified.matches('erp', 'n3w')).toBe('scrypt$hash2');
  });

  it('are bounded: the client remembered longest ago is forgotten first', () => {
    const verified = new VerifiedSecrets(2);
    verified.remember('a', 'h', 's');
    verified.remember('b', 'h', 's');
    verified.remember('a', 'h', 's'); // a again: now the newest
    verified.remember('c', 'h', 's');
    expect(['a', 'b', 'c'].map((id) => verified.matches(id, 's') !== undefined)).toEqual([true, false, true]);
  });
});
