import { Controller, Get, Logger, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, type Recebedor } from '@pix/domain';
import type { AccessDirectory, ClientRecord } from '../access/access-directory';
import { TokenSigner } from '../access/token/token-signer';
import { Public, Scopes } from './auth-context';
import { AuthGuard } from './auth.guard';
import { UnauthorizedError } from './unauthorized';

@Controller()
class Routes {
  @Get() @Scopes('cobv.read') scoped() {}
  @Get() @Public() open() {}
  @Get() forgotten() {}
}

const recebedor: Recebedor = { id: 'loja1', nome: 'Loja', cnpj: '56989000019563', logradouro: 'R', cidade: 'C', uf: 'SP', cep: '01001000', chaves: [] };
const now = new Date('2026-11-22T12:00:00Z');

describe('auth guard', () => {
  const signer = new TokenSigner(Buffer.alloc(32, 7), () => now);
  let client: ClientRecord;
  const directory = { client: async () => client, recebedor: async (id: string) => (id === 'loja1' ? recebedor : undefined) } as unknown as AccessDirectory;
  const config = { auth: { certificateBoundTokens: false } } as any;
  const guard = new AuthGuard(new Reflector(), directory, signer, config);
  const headers: Record<string, string> = {};
  const reply = { header: jest.fn() } as any;
  const newRequest = () => ({ headers, method: 'GET', url: '/v2/x', routeOptions: { url: '/v2/x' }, raw: { socket: {} } }) as any;
  // A request is admitted once (the guard marks it): each test sends a new one.
  let request = newRequest();
  const context = (handler: keyof Routes) =>
    ({ getHandler: () => Routes.prototype[handler], getClass: () => Routes, switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) }) as unknown as ExecutionContext;
  const tokenOf = async (over: Record<string, unknown> = {}) =>
    (await signer.sign({ sub: 'erp', rid: 'loja1', scope: 'cobv.read', gen: 1, ...over } as any, 60)).token;
  const refusal = async (handler: keyof Routes) => guard.canActivate(context(handler)).then(() => undefined, (e: unknown) => e);

  beforeEach(() => {
    config.auth.certificateBoundTokens = false;
    client = { clientId: 'erp', recebedorId: 'loja1', scopes: ['cobv.read'], enabled: true, generation: 1, secretHash: 'x' };
    delete headers.authorization;
    request = newRequest();
  });

  it('does not check again a request admitted before its body was read, for the same route', async () => {
    headers.authorization = `Bearer ${await tokenOf()}`;
    await guard.admit(request, reply, Reflect.getMetadata('pix:scopes', Routes.prototype.scoped));
    client.enabled = false; // what the guard would now refuse
    await expect(guard.canActivate(context('scoped'))).resolves.toBe(true);
    // Admitted for another list of scopes (another route), it is checked.
    request = newRequest();
    client.enabled = true;
    await guard.admit(request, reply, ['cobv.read']);
    client.enabled = false;
    expect(await refusal('scoped')).toBeInstanceOf(UnauthorizedError);
  });

  it('lets @Public routes through without a token, and refuses a route with neither @Scopes nor @Public (fail closed)', async () => {
    await expect(guard.canActivate(context('open'))).resolves.toBe(true);
    headers.authorization = `Bearer ${await tokenOf()}`;
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const error = await refusal('forgotten');
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('AcessoNegado');
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('neither @Scopes nor @Public'));
    logged.mockRestore();
  });

  it('admits a valid token and sets the auth context with the receiver from the directory', async () => {
    headers.authorization = `Bearer ${await tokenOf()}`;
    await expect(guard.canActivate(context('scoped'))).resolves.toBe(true);
    expect(request.auth).toEqual({ clientId: 'erp', recebedor, scopes: new Set(['cobv.read']) });
  });

  it('drops from the token the scopes its client no longer has', async () => {
    headers.authorization = `Bearer ${await tokenOf({ scope: 'cobv.read cobv.write' })}`;
    await expect(guard.canActivate(context('scoped'))).resolves.toBe(true);
    expect(request.auth.scopes).toEqual(new Set(['cobv.read']));
    client.scopes = ['cobv.write'];
    request = newRequest();
    const error = await refusal('scoped');
    expect((error as DomainError).kind).toBe('AcessoNegado');
  });

  it.each<[string, () => Promise<string>, () => void]>([
    ['an older secret generation', () => tokenOf({ gen: 1 }), () => (client.generation = 2)],
    ['a disabled client', () => tokenOf(), () => (client.enabled = false)],
    ['a client of another receiver', () => tokenOf({ rid: 'loja2' }), () => undefined],
    ['a token bound to a certificate this connection does not have', () => tokenOf({ cnf: { 'x5t#S256': 'abc' } }), () => undefined],
    ['an unbound token when certificate-bound tokens are on', () => tokenOf(), () => (config.auth.certificateBoundTokens = true)],
    ['a token signed with another key', async () => (await new TokenSigner(Buffer.alloc(32, 8), () => now).sign({ sub: 'erp', rid: 'loja1', scope: 'cobv.read', gen: 1 }, 60)).token, () => undefined],
    ['an expired token', async () => (await new TokenSigner(Buffer.alloc(32, 7), () => new Date(now.getTime() - 61_000)).sign({ sub: 'erp', rid: 'loja1', scope: 'cobv.read', gen: 1 }, 60)).token, () => undefined],
  ])('refuses %s with 401 invalid_token', async (_name, make, arrange) => {
    headers.authorization = `Bearer ${await make()}`;
    arrange();
    const error = await refusal('scoped');
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as UnauthorizedError).challenge).toBe('Bearer realm="pix", error="invalid_token"');
    expect(request.auth).toBeUndefined();
  });

  it('refuses a token without the route\'s scope with 403 AcessoNegado', async () => {
    headers.authorization = `Bearer ${await tokenOf({ scope: 'cobv.write' })}`;
    const error = await refusal('scoped');
    expect((error as DomainError).kind).toBe('AcessoNegado');
    expect(reply.header).toHaveBeenCalledWith('www-authenticate', 'Bearer realm="pix", error="insufficient_scope", scope="cobv.read"');
  });

  it('asks for a token (no error code) when none or another scheme is sent, saying which', async () => {
    for (const [value, detail] of [
      [undefined, /^Token de acesso ausente/],
      ['Basic c2FuZGJveDpzYW5kYm94LXNlY3JldA==', /^Esquema de autorização não aceito: envie Authorization: Bearer/],
      ['c2VjcmV0LXRva2VuLXdpdGhvdXQtc2NoZW1l', /^Esquema de autorização não aceito: envie Authorization: Bearer/],
    ] as const) {
      if (value) headers.authorization = value;
      const error = await refusal('scoped');
      expect((error as UnauthorizedError).challenge).toBe('Bearer realm="pix"');
      expect((error as UnauthorizedError).message).toMatch(detail);
      if (value) expect((error as UnauthorizedError).message).not.toContain(value.slice(0, 8));
    }
  });

  it.each(['Bearer ção', 'Bearer a b', 'Bearer', 'bearer   '])('refuses a Bearer value that is no token (%j) as malformed, 401 invalid_token', async (value) => {
    headers.authorization = value;
    const error = await refusal('scoped');
    expect((error as UnauthorizedError).challenge).toBe('Bearer realm="pix", error="invalid_token"');
    expect((error as UnauthorizedError).message).toMatch(/^Token de acesso malformado/);
  });
});
