import { Inject, Injectable, Logger } from '@nestjs/common';
import { isPixScope } from '@pix/domain';
import { withCorrelationId } from '@pix/observability';
import type { AppConfig } from '../../config/config';
import { ACCESS_DIRECTORY, CONFIG, TOKEN_SIGNER } from '../../infrastructure/tokens';
import type { AccessDirectory } from '../access-directory';
import { decoyHash, verifySecret } from '../secrets';
import { OAuthError } from './oauth-error';
import type { TokenRequest } from './token-request';
import type { TokenSigner } from './token-signer';
import { VerifiedSecrets } from './verified-secrets';

/** Runs a scrypt check when it is its turn (ChecksPerAddress); may refuse with 429 instead. */
export type SlowCheckGate = <T>(check: () => Promise<T>) => Promise<T>;

/** RFC 6749 §5.1 successful answer. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/** Use case: a client exchanges its credentials for an access token (client_credentials grant). */
@Injectable()
export class IssueTokenHandler {
  private readonly logger = new Logger('OAuth');
  private readonly verified = new VerifiedSecrets();

  constructor(
    @Inject(ACCESS_DIRECTORY) private readonly directory: AccessDirectory,
    @Inject(TOKEN_SIGNER) private readonly signer: TokenSigner,
    @Inject(CONFIG) private readonly config: Pick<AppConfig, 'auth'>,
  ) {}

  /**
   * `certificate`: the verified client certificate's thumbprint on this connection, if any;
   * `correlationId`: the HTTP request's, for the log; `gate`: where a scrypt check waits its turn.
   * A secret this process verified before, against the same stored hash, skips the gate and the
   * hash: a flood of wrong secrets delays only clients asking for the first time (ADR 8).
   */
  async execute(request: TokenRequest, certificate: string | undefined, correlationId?: string, gate: SlowCheckGate = (check) => check()): Promise<TokenResponse> {
    const remembered = this.verified.matches(request.clientId, request.clientSecret);
    // Fresh from the store: a secret rotated or a client disabled a moment ago counts here at once.
    let client = remembered !== undefined ? await this.directory.client(request.clientId, { fresh: true }) : undefined;
    let secretOk = client !== undefined && client.secretHash === remembered;
    if (!secretOk) {
      [client, secretOk] = await gate(async () => {
        const fresh = await this.directory.client(request.clientId, { fresh: true });
        // An unknown client costs the same hash as a known one, so timing does not reveal client ids.
        return [fresh, await verifySecret(request.clientSecret, fresh?.secretHash ?? (await decoyHash()))] as const;
      });
      // A wrong secret forgets nothing: guesses must not push a client back into the queue.
      if (client && secretOk) this.verified.remember(client.clientId, client.secretHash, request.clientSecret);
    }
    if (!client || !secretOk || !client.enabled) {
      withCorrelationId(correlationId, () => this.logger.warn(`token refused for client "${request.clientId.slice(0, 64)}": ${!client ? 'unknown client' : !secretOk ? 'wrong secret' : 'client disabled'}`));
      throw new OAuthError('invalid_client', 'Cliente desconhecido, segredo incorreto ou cliente desativado.');
    }
    if (request.grantType !== 'client_credentials') throw new OAuthError('unsupported_grant_type', 'Apenas grant_type=client_credentials é aceito.');
    const bound = this.config.auth.certificateBoundTokens;
    if (bound && !certificate) throw new OAuthError('invalid_client', 'Este servidor emite tokens vinculados ao certificado (RFC 8705): conecte-se com um certificado de cliente válido.');
    const scopes = this.grantedScopes(request.scope, client.scopes);
    if (!(await this.directory.recebedor(client.recebedorId))) throw new OAuthError('invalid_client', 'O recebedor deste cliente não está cadastrado.');
    const ttl = this.config.auth.tokenTtlSeconds;
    const { token } = await this.signer.sign(
      { sub: client.clientId, rid: client.recebedorId, scope: scopes.join(' '), gen: client.generation, ...(bound ? { cnf: { 'x5t#S256': certificate! } } : {}) },
      ttl,
    );
    return { access_token: token, token_type: 'Bearer', expires_in: ttl, scope: scopes.join(' ') };
  }

  /** None requested: all of the client's. Otherwise a subset of the client's, or invalid_scope. */
  private grantedScopes(requested: string | undefined, allowed: string[]): string[] {
    if (requested === undefined) return allowed;
    const asked = [...new Set(requested.split(' '))];
    const refused = asked.filter((s) => !isPixScope(s) || !allowed.includes(s));
    if (refused.length > 0) throw new OAuthError('invalid_scope', `Escopo(s) não permitido(s) para este cliente: ${refused.join(' ').slice(0, 200)}.`);
    return allowed.filter((s) => asked.includes(s));
  }
}
