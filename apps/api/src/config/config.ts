import { existsSync } from 'node:fs';
import { isValidCnpj, isValidCpf, LOCAL_RECEBEDOR_ID, pixKeyType, type Recebedor } from '@pix/domain';
import { loadDeliverySettings } from '@pix/messaging';
import type { DeliveryConfig } from '@pix/webhook-delivery';

export type Mode = 'local' | 'production';

export interface AppConfig {
  mode: Mode;
  host: string;
  port: number;
  basePath: string;
  /** Local mode: embedded PostgreSQL lives here. */
  dataDir: string;
  databaseUrl?: string;
  eventStoreConnectionString?: string;
  /** host[:port] used in payload locations and BR Codes (https implied). */
  locationHost: string;
  maxBodyBytes: number;
  /** Most creation requests one batch may carry. */
  loteMaxSolicitacoes: number;
  /** Batch requests decided at the same time. */
  loteConcurrency: number;
  /** Local mode's receiver (LOCAL_*), seeded at start-up; production receivers come from `npm run admin`. */
  recebedor?: Recebedor;
  /** Kafka for cash-ins; without it, local mode uses the in-process transport. */
  kafkaBrokers: string[];
  /** Webhook delivery (the notifier runs in this process in local mode). */
  delivery: DeliveryConfig;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  auth: AuthConfig;
  /** Serve HTTPS, optionally requiring client certificates (mTLS); undefined serves plain HTTP. */
  tls?: TlsConfig;
  /** Per-client token bucket; `perSecond` 0 turns limiting off. */
  rateLimit: { perSecond: number; burst: number };
  /** One access-log line per request (method, path, status, duration, client, correlation id). */
  logRequests: boolean;
}

export interface AuthConfig {
  /** Lifetime of access tokens from POST /oauth/token. */
  tokenTtlSeconds: number;
  /** HMAC key that signs access tokens (>= 32 bytes); local mode keeps one in DATA_DIR when unset. */
  tokenKey?: Buffer;
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

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The local sandbox receiver: the official example's company (CNPJ with valid check digits) and Pix key. */
export const LOCAL_RECEIVER_DEFAULTS = {
  NAME: 'Empresa de Logística SA',
  CNPJ: '56989000019563',
  STREET: 'Rua 15 Numero 1200, Bairro São Luiz',
  CITY: 'São Paulo',
  UF: 'SP',
  CEP: '70800100',
  PIX_KEY: '5f84a4c5-c5cb-4599-9f13-7eb4d419dacc',
};

/** Reads and validates all configuration once; every bad value gets its own message. */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const problems: string[] = [];
  const mode = (env.MODE ?? 'local') as Mode;
  if (mode !== 'local' && mode !== 'production') problems.push(`MODE must be "local" or "production", got "${env.MODE}"`);
  const local = mode !== 'production';
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    return n;
  };
  const port = int('PORT', 8080, 0, 65535);
  const basePath = env.BASE_PATH ?? '/v2';
  if (!/^\/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$/.test(basePath)) problems.push(`BASE_PATH must look like "/v2", got "${basePath}"`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL must be a postgres:// connection URL');
  if (!local && !databaseUrl) problems.push('DATABASE_URL is required in production mode (PostgreSQL for read models and, without EVENTSTORE_CONNECTION_STRING, events)');
  const esdb = env.EVENTSTORE_CONNECTION_STRING || undefined;
  if (esdb && !/^(esdb|esdb\+discover|kurrentdb|kurrent):\/\//.test(esdb)) problems.push('EVENTSTORE_CONNECTION_STRING must start with esdb:// (or esdb+discover://)');
  const locationHost = env.LOCATION_HOST ?? `localhost:${port}`;
  if (!/^[a-z0-9.-]+(:\d+)?$/i.test(locationHost) || locationHost.length > 25)
    problems.push(`LOCATION_HOST must be a host[:port] of at most 25 characters (the location must fit 77), got "${locationHost}"`);
  const logLevel = (env.LOG_LEVEL ?? 'info') as AppConfig['logLevel'];
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) problems.push(`LOG_LEVEL must be debug, info, warn or error, got "${env.LOG_LEVEL}"`);
  const maxBodyBytes = int('MAX_BODY_BYTES', 4 * 1_048_576, 1024, 64 * 1_048_576);
  const loteMaxSolicitacoes = int('LOTECOBV_MAX_REQUESTS', 1000, 1, 100_000);
  const loteConcurrency = int('LOTECOBV_CONCURRENCY', 8, 1, 256);
  const recebedor = local ? loadLocalRecebedor(env, problems) : undefined;
  const kafkaBrokers = (env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
  for (const b of kafkaBrokers) if (!/^[A-Za-z0-9.-]+:\d+$/.test(b)) problems.push(`KAFKA_BROKERS: "${b}" is not host:port`);
  const delivery = loadDeliverySettings(env, problems);
  const auth = loadAuth(env, local, problems, int);
  const tls = loadTls(env, local, problems);
  if (auth.certificateBoundTokens && !tls?.clientCaFile) problems.push('AUTH_CERTIFICATE_BOUND_TOKENS=true needs mTLS (TLS_CERT_FILE, TLS_KEY_FILE and TLS_CLIENT_CA_FILE)');
  const rateLimit = { perSecond: int('RATE_LIMIT_PER_SECOND', 200, 0, 1_000_000), burst: int('RATE_LIMIT_BURST', 400, 1, 10_000_000) };
  const logRequests = env.LOG_REQUESTS ?? 'true';
  if (logRequests !== 'true' && logRequests !== 'false') problems.push(`LOG_REQUESTS must be true or false, got "${logRequests}"`);
  // Local mode delivers to localhost receivers (and says so at start-up); production refuses private targets unless told.
  if (local && env.WEBHOOK_ALLOW_PRIVATE_TARGETS === undefined) delivery.allowPrivateTargets = true;
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    mode,
    host: env.HOST ?? (local ? 'localhost' : '0.0.0.0'),
    port,
    basePath,
    dataDir: env.DATA_DIR ?? './data',
    databaseUrl,
    eventStoreConnectionString: esdb,
    locationHost,
    maxBodyBytes,
    loteMaxSolicitacoes,
    loteConcurrency,
    recebedor,
    kafkaBrokers,
    delivery,
    logLevel,
    auth,
    tls,
    rateLimit,
    logRequests: logRequests === 'true',
  };
}

type IntReader = (name: string, fallback: number, min: number, max: number) => number;

function loadAuth(env: Record<string, string | undefined>, local: boolean, problems: string[], int: IntReader): AuthConfig {
  let tokenKey: Buffer | undefined;
  const rawKey = env.AUTH_TOKEN_KEY;
  if (rawKey) {
    tokenKey = /^[0-9a-f]+$/i.test(rawKey) && rawKey.length % 2 === 0 ? Buffer.from(rawKey, 'hex') : Buffer.from(rawKey, 'base64');
    if (tokenKey.length < 32) problems.push('AUTH_TOKEN_KEY must be at least 32 bytes, hex or base64 (e.g. `openssl rand -hex 32`)');
  } else if (!local) problems.push('AUTH_TOKEN_KEY is required in production mode (every API instance signs and verifies tokens with it; `openssl rand -hex 32`)');
  const bound = env.AUTH_CERTIFICATE_BOUND_TOKENS ?? 'false';
  if (bound !== 'true' && bound !== 'false') problems.push(`AUTH_CERTIFICATE_BOUND_TOKENS must be true or false, got "${bound}"`);
  const localClientId = env.LOCAL_CLIENT_ID ?? 'sandbox';
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(localClientId)) problems.push(`LOCAL_CLIENT_ID must be 1 to 64 letters, digits, ".", "_" or "-", got "${localClientId}"`);
  const localClientSecret = env.LOCAL_CLIENT_SECRET ?? 'sandbox-secret';
  if (localClientSecret.length < 8 || localClientSecret.length > 200) problems.push('LOCAL_CLIENT_SECRET must be 8 to 200 characters');
  return {
    tokenTtlSeconds: int('AUTH_TOKEN_TTL_SECONDS', 3600, 60, 86_400),
    tokenKey,
    certificateBoundTokens: bound === 'true',
    directoryCacheMs: int('AUTH_CACHE_MS', 2000, 0, 600_000),
    localClientId,
    localClientSecret,
  };
}

function loadTls(env: Record<string, string | undefined>, local: boolean, problems: string[]): TlsConfig | undefined {
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

/** Local mode's receiver: LOCAL_* with sandbox defaults. */
function loadLocalRecebedor(env: Record<string, string | undefined>, problems: string[]): Recebedor {
  const get = (key: keyof typeof LOCAL_RECEIVER_DEFAULTS) => {
    const name = key === 'PIX_KEY' ? 'LOCAL_PIX_KEY' : `LOCAL_RECEIVER_${key}`;
    return { name, value: env[name] || LOCAL_RECEIVER_DEFAULTS[key] };
  };
  const doc = get('CNPJ');
  const digits = doc.value.replace(/[.\-/]/g, '');
  const isCpf = /^\d{11}$/.test(digits);
  if (!(isCpf ? isValidCpf(digits) : isValidCnpj(digits))) problems.push(`${doc.name} must be a valid CNPJ (or CPF) with check digits, got "${doc.value}"`);
  const uf = get('UF');
  if (!/^[A-Z]{2}$/.test(uf.value)) problems.push(`${uf.name} must be two capital letters, got "${uf.value}"`);
  const cep = get('CEP');
  if (!/^\d{8}$/.test(cep.value)) problems.push(`${cep.name} must be 8 digits, got "${cep.value}"`);
  const keys = get('PIX_KEY');
  const chaves = keys.value.split(',').map((k) => k.trim()).filter(Boolean);
  for (const k of chaves) if (pixKeyType(k) === null) problems.push(`${keys.name}: "${k}" is not a valid Pix key (CPF, CNPJ, e-mail, +55 phone or EVP)`);
  return {
    id: LOCAL_RECEBEDOR_ID,
    nome: get('NAME').value,
    ...(isCpf ? { cpf: digits } : { cnpj: digits }),
    logradouro: get('STREET').value,
    cidade: get('CITY').value,
    uf: uf.value,
    cep: cep.value,
    chaves,
  };
}

/** What `npm run admin` needs: where the events are. Nothing else (no token key, no receiver). */
export interface AdminConfig {
  databaseUrl?: string;
  eventStoreConnectionString?: string;
  dataDir: string;
}

export function loadAdminConfig(env: Record<string, string | undefined>): AdminConfig {
  const problems: string[] = [];
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL must be a postgres:// connection URL');
  const esdb = env.EVENTSTORE_CONNECTION_STRING || undefined;
  if (esdb && !/^(esdb|esdb\+discover|kurrentdb|kurrent):\/\//.test(esdb)) problems.push('EVENTSTORE_CONNECTION_STRING must start with esdb:// (or esdb+discover://)');
  if (problems.length > 0) throw new ConfigError(problems);
  return { databaseUrl, eventStoreConnectionString: esdb, dataDir: env.DATA_DIR ?? './data' };
}
