import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { PixScope, Recebedor } from '@pix/domain';

// The scope list lives in the domain (clients are granted subsets of it); re-exported here for controllers.
export { PIX_SCOPES, type PixScope } from '@pix/domain';

/** Who is calling, as the auth guard established it from a verified token. */
export interface AuthContext {
  clientId: string;
  recebedor: Recebedor;
  scopes: ReadonlySet<string>;
}

export const SCOPES_KEY = 'pix:scopes';
export const PUBLIC_KEY = 'pix:public';

/** Where a scoped route's Fastify config names its scopes, for the check made before its body is read (admission-before-body.ts). */
export const ROUTE_SCOPES = 'pixScopes';

/**
 * The scope (from the contract's `security` block) a route requires. The same list goes to the
 * guard's metadata and to the route's Fastify config, so the guard knows a request the hook
 * admitted by the list's identity.
 */
export const Scopes = (...scopes: PixScope[]) => applyDecorators(SetMetadata(SCOPES_KEY, scopes), RouteConfig({ [ROUTE_SCOPES]: scopes }));

/** A route open without a token (health, token endpoint, local-only sandbox and operator routes). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

export function authContextOf(request: unknown): AuthContext | undefined {
  return (request as { auth?: AuthContext }).auth;
}

/** The receiver the guard admitted this request for; throws on a request it did not admit with a token. */
export function recebedorOf(request: unknown): Recebedor {
  const auth = authContextOf(request);
  // Fail closed: a route that forgot @Scopes never runs without a tenant.
  if (!auth) throw new Error('no authenticated receiver on this request (route lacks @Scopes?)');
  return auth.recebedor;
}

/** The calling client's receiver (tenant); only on routes the guard admitted with a token. */
export const CurrentRecebedor = createParamDecorator((_: unknown, ctx: ExecutionContext): Recebedor => recebedorOf(ctx.switchToHttp().getRequest()));
