import { Logger } from '@nestjs/common';
import { decodeJwt } from 'jose';
import type { AccessDirectory, ClientRecord } from '../access-directory';
import { hashSecret } from '../secrets';
import { IssueTokenHandler } from './issue-token.handler';
import { OAuthError } from './oauth-error';
import { TokenSigner } from './token-signer';

describe('issuing tokens', () => {
  let client: ClientRecord;
  const directory = { client: async (id: string) => (id === client.clientId ? client : undefined), recebedor: async () => ({ id: 'loja1' }) } as unknown as AccessDirectory;
  const config = { auth: { tokenTtlSeconds: 600, certificateBoundTokens: false } } as any;
  const handler = new IssueTokenHandler(directory, new TokenSigner(Buffer.alloc(32, 1), () => new Date('2026-11-22T12:00:00Z')), config);
  const request = { grantType: 'client_credentials', clientId: 'erp', clientSecret: 's3cret-s3cret' };
  const refusal = (certificate?: string, over = {}) => handler.execute({ ...request, ...over }, certificate).then(() => undefined, (e: OAuthError) => e.error);

  beforeAll(async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    client = { clientId: 'erp', recebedorId: 'loja1', scopes: ['cobv.write', 'cobv.read'], enabled: true, generation: 3, secretHash: await hashSecret('s3cret-s3cret') };
  });

  it('signs sub, rid, scope and gen for the configured lifetime', async () => {
    const res = await handler.execute(request, undefined);
    expect(res).toMatchObject({ token_type: 'Bearer', expires_in: 600, scope: 'cobv.write cobv.read' });
    expect(decodeJwt(res.access_token)).toMatchObject({ sub: 'erp', rid: 'loja1', gen: 3, iat: Date.parse('2026-11-22T12:00:00Z') / 1000, exp: Date.parse('2026-11-22T12:10:00Z') / 1000 });
  });

  it('with certificate-bound tokens: needs a client certificate, and binds the token to it', async () => {
    config.auth.certificateBoundTokens = true;
    try {
      expect(await refusal(undefined)).toBe('invalid_client');
      const res = await handler.execute(request, 'thumb');
      expect(decodeJwt(res.access_token)).toMatchObject({ cnf: { 'x5t#S256': 'thumb' } });
    } finally {
      config.auth.certificateBoundTokens = false;
    }
  });

  it('refuses a wrong secret, an unknown client and a disabled one alike', async () => {
    expect(await refusal(undefined, { clientSecret: 'wrong' })).toBe('invalid_client');
    expect(await refusal(undefined, { clientId: 'other' })).toBe('invalid_client');
    client.enabled = false;
    expect(await refusal(undefined)).toBe('invalid_client');
    client.enabled = true;
  });

  it('checks a secret once per process: later requests with it skip the scrypt gate, until the stored hash changes', async () => {
    const fresh = new IssueTokenHandler(directory, new TokenSigner(Buffer.alloc(32, 1), () => new Date('2026-11-22T12:00:00Z')), config);
    let gated = 0;
    const gate = <T>(check: () => Promise<T>) => ((gated += 1), check());
    await fresh.execute(request, undefined, undefined, gate);
    await fresh.execute(request, undefined, undefined, gate);
    expect(gated).toBe(1);
    // A guess always takes the gate, and does not push the client back into it.
    await expect(fresh.execute({ ...request, clientSecret: 'guess' }, undefined, undefined, gate)).rejects.toMatchObject({ error: 'invalid_client' });
    expect(gated).toBe(2);
    await fresh.execute(request, undefined, undefined, gate);
    expect(gated).toBe(2);
    // Disabled meanwhile: refused without a check.
    client.enabled = false;
    await expect(fresh.execute(request, undefined, undefined, gate)).rejects.toMatchObject({ error: 'invalid_client' });
    client.enabled = true;
    expect(gated).toBe(2);
    // Rotated: the remembered secret no longer matches the stored hash, so it is checked (and refused).
    const before = client.secretHash;
    client.secretHash = await hashSecret('n3w-s3cret-n3w');
    try {
      await expect(fresh.execute(request, undefined, undefined, gate)).rejects.toMatchObject({ error: 'invalid_client' });
      expect(gated).toBe(3);
      await fresh.execute({ ...request, clientSecret: 'n3w-s3cret-n3w' }, undefined, undefined, gate);
      await fresh.execute({ ...request, clientSecret: 'n3w-s3cret-n3w' }, undefined, undefined, gate);
      expect(gated).toBe(4);
    } finally {
      client.secretHash = before;
    }
  });
});
