import { hasUnstorableText } from '@pix/contracts';
import { OAuthError } from './oauth-error';

/** RFC 6749 §4.4.2 + §2.3.1: what a client_credentials request says, once read. */
export interface TokenRequest {
  grantType: string;
  /** Space-separated; undefined asks for every scope the client has. */
  scope?: string;
  clientId: string;
  clientSecret: string;
}

/** The form body as parameters; a repeated parameter keeps every value (and is refused later). */
export function parseForm(text: string): Record<string, string | string[]> {
  const params = new Map<string, string | string[]>();
  for (const [k, v] of new URLSearchParams(text)) {
    const seen = params.get(k);
    // Appended in place: copying the array at each repeat made 30,000 repeats (90 kB) take 20 s.
    if (seen === undefined) params.set(k, v);
    else if (Array.isArray(seen)) seen.push(v);
    else params.set(k, [seen, v]);
  }
  // fromEntries defines own properties, so "__proto__" stays a plain key.
  return Object.fromEntries(params);
}

/** Reads the parameters (form or JSON body) and the client's credentials (HTTP Basic or body). */
export function readTokenRequest(body: unknown, authorization: string | undefined): TokenRequest {
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) throw new OAuthError('invalid_request', 'O corpo deve ser um formulário (application/x-www-form-urlencoded) ou um objeto JSON.');
  const params = (body ?? {}) as Record<string, unknown>;
  const param = (name: string): string | undefined => {
    const value = Object.prototype.hasOwnProperty.call(params, name) ? params[name] : undefined;
    if (value === undefined || value === null) return undefined;
    if (Array.isArray(value)) throw new OAuthError('invalid_request', `O parâmetro ${name} foi enviado mais de uma vez.`);
    if (typeof value !== 'string') throw new OAuthError('invalid_request', `O parâmetro ${name} deve ser um texto.`);
    if (hasUnstorableText(value)) throw new OAuthError('invalid_request', `O parâmetro ${name} contém U+0000 ou um substituto UTF-16 isolado.`);
    return value;
  };
  const grantType = param('grant_type');
  const scope = param('scope');
  const formId = param('client_id');
  const formSecret = param('client_secret');
  if (!grantType) throw new OAuthError('invalid_request', 'O parâmetro grant_type é obrigatório.');
  if (scope !== undefined && !/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/.test(scope)) throw new OAuthError('invalid_scope', 'O parâmetro scope deve listar escopos separados por um espaço.');
  if (authorization !== undefined) {
    const basic = parseBasic(authorization);
    if (formSecret !== undefined) throw new OAuthError('invalid_request', 'Use um único método de autenticação do cliente: HTTP Basic ou client_id/client_secret no corpo.');
    if (formId !== undefined && formId !== basic.clientId) throw new OAuthError('invalid_request', 'O client_id do corpo difere do enviado em HTTP Basic.');
    return { grantType, scope, ...basic };
  }
  if (!formId || formSecret === undefined) throw new OAuthError('invalid_client', 'Autenticação do cliente ausente: envie HTTP Basic ou client_id e client_secret.');
  return { grantType, scope, clientId: formId, clientSecret: formSecret };
}

/** RFC 6749 §2.3.1: base64 of `id:secret`, each form-urlencoded first. */
function parseBasic(header: string): { clientId: string; clientSecret: string } {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw new OAuthError('invalid_client', 'Cabeçalho Authorization inválido: esperado Basic base64(client_id:client_secret).');
  let credentials: { clientId: string; clientSecret: string };
  try {
    const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    credentials = { clientId: unform(decoded.slice(0, colon)), clientSecret: unform(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError('invalid_client', 'Cabeçalho Authorization inválido: credenciais mal codificadas.');
  }
  if (hasUnstorableText(credentials.clientId)) throw new OAuthError('invalid_client', 'Cabeçalho Authorization inválido: client_id com U+0000 ou substituto UTF-16 isolado.');
  return credentials;
}
