import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
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

/** The scope (from the contract's `security` block) a route requires. */
export const Scopes = (...scopes: PixScope[]) => SetMetadata(SCOPES_KEY, scopes);

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
