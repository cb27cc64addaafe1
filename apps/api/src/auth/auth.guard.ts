import { Inject, Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '@pix/domain';
import { inRequestContext } from '@pix/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccessDirectory, ClientRecord } from '../access/access-directory';
import type { TokenSigner } from '../access/token/token-signer';
import type { AppConfig } from '../config/config';
import { ACCESS_DIRECTORY, CONFIG, TOKEN_SIGNER } from '../infrastructure/tokens';
import { PUBLIC_KEY, SCOPES_KEY, type AuthContext } from './auth-context';
import { clientCertificateThumbprint } from './client-certificate';
import { UnauthorizedError } from './unauthorized';

const REALM = 'Bearer realm="pix"';

/**
 * Every route is @Public or names its @Scopes; a route with neither is refused (fail closed).
 * A scoped route needs a valid bearer token (RFC 6750) of an enabled client at its current
 * secret generation, bound to this connection's certificate when the token says so (RFC 8705),
 * carrying every scope the route names. Client and receiver come from the cached directory.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly logger = new Logger('Auth');
  private readonly policies = new WeakMap<object, WeakMap<object, RoutePolicy>>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(ACCESS_DIRECTORY) private readonly directory: AccessDirectory,
    @Inject(TOKEN_SIGNER) private readonly signer: TokenSigner,
    @Inject(CONFIG) private readonly config: Pick<AppConfig, 'auth'>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { isPublic, required } = this.policyOf(context.getHandler(), context.getClass());
    if (isPublic) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (!required) {
      inRequestContext(request, () => this.logger.error(`${request.method} ${request.routeOptions.url ?? request.url} has neither @Scopes nor @Public: refused`));
      throw new DomainError('AcessoNegado', 'Esta rota não tem política de acesso configurada.');
    }

    // Admitted before its body was read (admission-before-body.ts), for this very scope list.
    if ((request as Admitted)[ADMITTED] === required) return true;
    await this.admit(request, reply, required);
    return true;
  }

  /**
   * Admits a request to a route that requires `required`: sets its auth context, or throws the
   * refusal (401 without a usable token, 403 without the scopes).
   */
  async admit(request: FastifyRequest, reply: FastifyReply, required: readonly string[]): Promise<void> {
    const header = request.headers.authorization;
    const token = bearerToken(header);
    if (token === undefined) throw missingToken(header);
    const auth = await this.authenticate(token, request);
    if (typeof auth === 'string') throw new UnauthorizedError(auth, `${REALM}, error="invalid_token"`);
    const missing = required.filter((s) => !auth.scopes.has(s));
    if (missing.length > 0) {
      void reply.header('www-authenticate', `${REALM}, error="insufficient_scope", scope="${required.join(' ')}"`);
      throw new DomainError('AcessoNegado', `O token de acesso não tem o(s) escopo(s) exigido(s): ${missing.join(' ')}.`);
    }
    (request as { auth?: AuthContext }).auth = auth;
    (request as Admitted)[ADMITTED] = required;
  }

  /** A route's @Public / @Scopes, read from its metadata once (decorators do not change at run time). */
  private policyOf(handler: object, controller: object): RoutePolicy {
    let byHandler = this.policies.get(controller);
    if (!byHandler) this.policies.set(controller, (byHandler = new WeakMap()));
    let policy = byHandler.get(handler);
    if (!policy) {
      const targets = [handler, controller] as Parameters<Reflector['getAllAndOverride']>[1];
      policy = {
        isPublic: Boolean(this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)),
        required: this.reflector.getAllAndOverride<string[] | undefined>(SCOPES_KEY, targets),
      };
      byHandler.set(handler, policy);
    }
    return policy;
  }

  /** The caller, or why the token is refused. */
  private async authenticate(token: string, request: FastifyRequest): Promise<AuthContext | string> {
    const verified = await this.signer.verify(token);
    if (!verified.ok) return verified.reason;
    const { claims } = verified;
    const bound = claims.cnf?.['x5t#S256'];
    // With certificate-bound tokens on, an unbound token (minted before, with the same key) is refused too.
    if (bound === undefined && this.config.auth.certificateBoundTokens) return 'Este servidor aceita apenas tokens vinculados a um certificado de cliente.';
    if (bound !== undefined && bound !== clientCertificateThumbprint(request.raw)) return 'O token está vinculado a um certificado de cliente que não é o desta conexão.';
    const client = await this.directory.client(claims.sub);
    if (!client || client.recebedorId !== claims.rid) return 'O cliente deste token não existe.';
    if (!client.enabled) return 'O cliente deste token foi desativado.';
    if (client.generation !== claims.gen) return 'O segredo do cliente foi trocado depois da emissão deste token.';
    const recebedor = await this.directory.recebedor(claims.rid);
    if (!recebedor) return 'O recebedor deste token não está cadastrado.';
    return { clientId: client.clientId, recebedor, scopes: grantedScopes(client, claims.scope) };
  }
}

const ADMITTED = Symbol('admitted for scopes');
type Admitted = { [ADMITTED]?: readonly string[] };

interface RoutePolicy {
  isPublic: boolean;
  required: string[] | undefined;
}

// The directory hands out the same client record, and its scope list, until it reloads the
// client (a new list), so the scopes a token keeps are worked out once per list and token scope,
// not on every request. Lists are never changed in place.
const granted = new WeakMap<readonly string[], { scope: string; scopes: ReadonlySet<string> }>();

/** A scope taken from the client since the token was issued is gone from the token too. */
function grantedScopes(client: ClientRecord, scope: string): ReadonlySet<string> {
  const known = granted.get(client.scopes);
  if (known?.scope === scope) return known.scopes;
  const current = new Set<string>(client.scopes);
  const scopes: ReadonlySet<string> = new Set(scope.split(' ').filter((s) => current.has(s)));
  granted.set(client.scopes, { scope, scopes });
  return scopes;
}

/**
 * No Bearer credentials (RFC 6750 §3.1: no error code), or a Bearer value that is no token at all
 * (characters outside b64token, spaces inside): told apart, so a client sees what it sent wrong.
 */
function missingToken(header: string | undefined): UnauthorizedError {
  const how = 'envie Authorization: Bearer <token> obtido em POST /oauth/token.';
  if (header === undefined || header.trim() === '') return new UnauthorizedError(`Token de acesso ausente: ${how}`, REALM);
  // The scheme is not echoed: a client that sent a bare secret would find part of it in the answer and in logs.
  if (!/^Bearer(\s|$)/i.test(header)) return new UnauthorizedError(`Esquema de autorização não aceito: ${how}`, REALM);
  return new UnauthorizedError(`Token de acesso malformado (esperado um b64token da RFC 6750): ${how}`, `${REALM}, error="invalid_token"`);
}

function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match?.[1];
}
