import { existsSync } from 'node:fs';

// Access settings: token signing, local client, TLS/mTLS. Read once by loadConfig.

export interface AuthConfig {
  /** Lifetime of access tokens from POST /oauth/token. */
  tokenTtlSeconds: number;
  /** HMAC key that signs access tokens (>= 32 bytes); local mode keeps one in DATA_DIR when unset. */
  tokenKey?: Buffer;
  /** Keys that signed earlier tokens: still accepted for verification, never used to sign (rotation). */
  previousTokenKeys: Buffer[];
  /** RFC 8705: tokens carry the client certificate's thumbprint and need that certificate. */
  certificateBoundTokens: boolean;
  /** How long receivers and clients are cached in memory (disable/rotate take effect within it). */
  directoryCacheMs: number;
  /** Local mode's seeded client (printed at start-up). */
  localClientId: string;
  localClientSecret: string;
}

export interface TlsConfig {
  certFile: string;
  keyFile: string;
  /** CA that signs client certificates; when set, a client certificate is required (mTLS). */
  clientCaFile?: string;
}

/** AUTH_CACHE_MS, read by the API and by `npm run admin` (which waits it out). */
export const AUTH_CACHE_MS = { fallback: 2000, min: 0, max: 600_000 };

export type IntReader = (name: string, fallback: number, min: number, max: number) => number;

export function loadAuth(env: Record<string, string | undefined>, local: boolean, problems: string[], int: IntReader): AuthConfig {
  const parseKey = (name: string, raw: string) => {
    const key = /^[0-9a-f]+$/i.test(raw) && raw.length % 2 === 0 ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
    if (key.length < 32) problems.push(`${name} must be at least 32 bytes, hex or base64 (e.g. \`openssl rand -hex 32\`)`);
    return key;
  };
  const rawKey = env.AUTH_TOKEN_KEY;
  const tokenKey = rawKey ? parseKey('AUTH_TOKEN_KEY', rawKey) : undefined;
  if (!rawKey && !local) problems.push('AUTH_TOKEN_KEY is required in production mode (every API instance signs and verifies tokens with it; `openssl rand -hex 32`)');
  const previous = (env.AUTH_TOKEN_PREVIOUS_KEYS ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  const previousTokenKeys = previous.map((k) => parseKey('AUTH_TOKEN_PREVIOUS_KEYS (each key)', k));
  const bound = env.AUTH_CERTIFICATE_BOUND_TOKENS ?? 'false';
  if (bound !== 'true' && bound !== 'false') problems.push(`AUTH_CERTIFICATE_BOUND_TOKENS must be true or false, got "${bound}"`);
  const localClientId = env.LOCAL_CLIENT_ID ?? 'sandbox';
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(localClientId)) problems.push(`LOCAL_CLIENT_ID must be 1 to 64 letters, digits, ".", "_" or "-", got "${localClientId}"`);
  const localClientSecret = env.LOCAL_CLIENT_SECRET ?? 'sandbox-secret';
  if (localClientSecret.length < 8 || localClientSecret.length > 200) problems.push('LOCAL_CLIENT_SECRET must be 8 to 200 characters');
  return {
    tokenTtlSeconds: int('AUTH_TOKEN_TTL_SECONDS', 3600, 60, 86_400),
    tokenKey,
    previousTokenKeys,
    certificateBoundTokens: bound === 'true',
    directoryCacheMs: int('AUTH_CACHE_MS', AUTH_CACHE_MS.fallback, AUTH_CACHE_MS.min, AUTH_CACHE_MS.max),
    localClientId,
    localClientSecret,
  };
}

export function loadTls(env: Record<string, string | undefined>, local: boolean, problems: string[]): TlsConfig | undefined {
  const certFile = env.TLS_CERT_FILE || undefined;
  const keyFile = env.TLS_KEY_FILE || undefined;
  const clientCaFile = env.TLS_CLIENT_CA_FILE || undefined;
  if (!certFile && !keyFile && !clientCaFile) return undefined;
  if (local) {
    problems.push('TLS_* settings are for production mode; local mode serves plain HTTP on localhost');
    return undefined;
  }
  if (!certFile || !keyFile) problems.push('TLS_CERT_FILE and TLS_KEY_FILE go together (and TLS_CLIENT_CA_FILE needs both)');
  for (const [name, file] of [['TLS_CERT_FILE', certFile], ['TLS_KEY_FILE', keyFile], ['TLS_CLIENT_CA_FILE', clientCaFile]] as const)
    if (file && !existsSync(file)) problems.push(`${name}: no file at "${file}"`);
  return { certFile: certFile ?? '', keyFile: keyFile ?? '', clientCaFile };
}
