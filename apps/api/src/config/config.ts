import { isValidCnpj, isValidCpf, LOCAL_RECEBEDOR_ID, pixKeyType, type Recebedor } from '@pix/domain';
import { loadDeliverySettings } from '@pix/messaging';
import type { DeliveryConfig } from '@pix/webhook-delivery';
import { eventStoreConnectionStringProblem } from '@pix/event-store';
import { AUTH_CACHE_MS, loadAuth, loadTls, type AuthConfig, type TlsConfig } from './access-config';
import { loadPayloadSettings, type PayloadSettings } from './payload-config';
import { loadConsumerGroups } from './settlement-config';
import { KAFKA_NONE, loadKafkaBrokers, loadLocationHost } from './network-config';
import { emptyAsUnset, isListenHost, loadObservabilitySettings, readIntegerSetting, type ObservabilitySettings } from '@pix/observability';

export type { AuthConfig, TlsConfig } from './access-config';
export type { PayloadSettings, PayloadSigningConfig } from './payload-config';
export { KAFKA_NONE } from './network-config';

export type Mode = 'local' | 'production';

export interface AppConfig extends ObservabilitySettings {
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
  /** /health/ready answers 503 while an asynchronous read model lags more than this (0: not checked). */
  readyMaxProjectionLagSeconds: number;
  /** Most milliseconds a statement of the API may wait for PostgreSQL's answer (migrations excepted): past it, 503. */
  databaseQueryTimeoutMs: number;
  /** Local mode's receiver (LOCAL_*), seeded at start-up; production receivers come from `npm run admin`. */
  recebedor?: Recebedor;
  /** Kafka for cash-ins; without it, local mode uses the in-process transport. */
  kafkaBrokers: string[];
  /** The settlement consumer group on KAFKA_BROKERS (SETTLEMENT_GROUP_ID; default pix-api-settlement, local mode: pix-local-<DATA_DIR's hash>-settlement). */
  settlementGroupId: string;
  /** Local mode with KAFKA_BROKERS: the group of the notifier's intake run here (NOTIFIER_GROUP_ID, default pix-local-<DATA_DIR's hash>-notifier). */
  notifierGroupId: string;
  /** Webhook delivery (the notifier runs in this process in local mode). */
  delivery: DeliveryConfig;
  auth: AuthConfig;
  /** Serve HTTPS, optionally requiring client certificates (mTLS); undefined serves plain HTTP. */
  tls?: TlsConfig;
  /** Per-client token bucket; `perSecond` 0 turns limiting off. */
  rateLimit: { perSecond: number; burst: number };
  /** Connections one remote address may hold open at once (0: no limit; a load balancer in front connects from its own). */
  connectionsPerAddress: number;
  /** One access-log line per request (method, path, status, duration, client, correlation id). */
  logRequests: boolean;
  /** Payload locations: their signing key and certificate (ADR 11), the sandbox payer's way to them. */
  payload: PayloadSettings;
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
export function loadConfig(given: Record<string, string | undefined>): AppConfig {
  const env = emptyAsUnset(given);
  const problems: string[] = [];
  const mode = (env.MODE ?? 'local') as Mode;
  if (mode !== 'local' && mode !== 'production') problems.push(`MODE must be "local" or "production", got "${env.MODE}"`);
  const local = mode !== 'production';
  const int = (name: string, fallback: number, min: number, max: number) => readIntegerSetting(env, name, { fallback, min, max }, problems);
  const port = int('PORT', 8080, 0, 65535);
  const basePath = env.BASE_PATH ?? '/v2';
  if (!/^\/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$/.test(basePath)) problems.push(`BASE_PATH must look like "/v2", got "${basePath}"`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL must be a postgres:// connection URL');
  if (!local && !databaseUrl) problems.push('DATABASE_URL is required in production mode (PostgreSQL for read models and, without EVENTSTORE_CONNECTION_STRING, events)');
  const esdb = env.EVENTSTORE_CONNECTION_STRING || undefined;
  const esdbProblem = esdb && eventStoreConnectionStringProblem(esdb);
  if (esdbProblem) problems.push(esdbProblem);
  const locationHost = loadLocationHost(env, local, port, problems);
  const host = env.HOST ?? (local ? 'localhost' : '0.0.0.0');
  if (!isListenHost(host)) problems.push(`HOST must be a host name or IP address to listen on (e.g. 0.0.0.0 or 127.0.0.1), got "${host}"`);
  const maxBodyBytes = int('MAX_BODY_BYTES', 4 * 1_048_576, 1024, 64 * 1_048_576);
  const loteMaxSolicitacoes = int('LOTECOBV_MAX_REQUESTS', 1000, 1, 100_000);
  const loteConcurrency = int('LOTECOBV_CONCURRENCY', 8, 1, 256);
  const readyMaxProjectionLagSeconds = int('READY_MAX_PROJECTION_LAG_SECONDS', 30, 0, 86_400);
  const databaseQueryTimeoutMs = int('DATABASE_QUERY_TIMEOUT_MS', 30_000, 100, 3_600_000);
  const recebedor = local ? loadLocalRecebedor(env, problems) : undefined;
  const kafkaBrokers = loadKafkaBrokers(env, problems);
  // Production without a broker would never settle a charge: refused unless said on purpose (KAFKA_BROKERS=none).
  if (!local && kafkaBrokers.length === 0 && env.KAFKA_BROKERS?.trim() !== KAFKA_NONE)
    problems.push(`KAFKA_BROKERS is required in production mode (host:port[,host:port]): without it no cash-in arrives and no charge settles; KAFKA_BROKERS=${KAFKA_NONE} runs this API without settlement on purpose`);
  const dataDir = loadDataDir(env, problems);
  // Group ids read what was given: an empty one is refused, not the default (loadConsumerGroupId).
  const { settlementGroupId, notifierGroupId } = loadConsumerGroups(given, local, dataDir, problems);
  const delivery = loadDeliverySettings(env, problems);
  const auth = loadAuth(env, local, problems, int);
  const tls = loadTls(env, local, problems);
  const payload = loadPayloadSettings(env, local, problems);
  const observability = loadObservabilitySettings(env, local, problems);
  if (auth.certificateBoundTokens && !tls?.clientCaFile) problems.push('AUTH_CERTIFICATE_BOUND_TOKENS=true needs mTLS (TLS_CERT_FILE, TLS_KEY_FILE and TLS_CLIENT_CA_FILE)');
  const rateLimit = { perSecond: int('RATE_LIMIT_PER_SECOND', 200, 0, 1_000_000), burst: int('RATE_LIMIT_BURST', 400, 1, 10_000_000) };
  const connectionsPerAddress = int('CONNECTIONS_PER_ADDRESS', 512, 0, 1_000_000);
  const logRequests = env.LOG_REQUESTS ?? 'true';
  if (logRequests !== 'true' && logRequests !== 'false') problems.push(`LOG_REQUESTS must be true or false, got "${logRequests}"`);
  // Local mode delivers to localhost receivers (and says so at start-up); production refuses private targets unless told.
  if (local && env.WEBHOOK_ALLOW_PRIVATE_TARGETS === undefined) delivery.allowPrivateTargets = true;
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    mode,
    host,
    port,
    basePath,
    dataDir,
    databaseUrl,
    eventStoreConnectionString: esdb,
    locationHost,
    maxBodyBytes,
    loteMaxSolicitacoes,
    loteConcurrency,
    readyMaxProjectionLagSeconds,
    databaseQueryTimeoutMs,
    recebedor,
    kafkaBrokers,
    settlementGroupId,
    notifierGroupId,
    delivery,
    auth,
    tls,
    rateLimit,
    connectionsPerAddress,
    logRequests: logRequests === 'true',
    payload,
    ...observability,
  };
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
  /** The API's AUTH_CACHE_MS: `key remove` waits it out before sweeping the key's charges. */
  directoryCacheMs: number;
}

export function loadAdminConfig(given: Record<string, string | undefined>): AdminConfig {
  const env = emptyAsUnset(given);
  const problems: string[] = [];
  const mode = env.MODE ?? 'local';
  if (mode !== 'local' && mode !== 'production') problems.push(`MODE must be "local" or "production", got "${env.MODE}"`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL must be a postgres:// connection URL');
  // Production's receivers and clients live in its database: an embedded one in ./data would take them silently.
  if (mode === 'production' && !databaseUrl) problems.push('DATABASE_URL is required in production mode: the database the API uses (its events and read models, its receivers and clients)');
  const esdb = env.EVENTSTORE_CONNECTION_STRING || undefined;
  const esdbProblem = esdb && eventStoreConnectionStringProblem(esdb);
  if (esdbProblem) problems.push(esdbProblem);
  const directoryCacheMs = readIntegerSetting(env, 'AUTH_CACHE_MS', AUTH_CACHE_MS, problems);
  const dataDir = loadDataDir(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return { databaseUrl, eventStoreConnectionString: esdb, dataDir, directoryCacheMs };
}

/** Local mode's folder. Surrounding spaces are a slip, not a folder's name: " " made a folder named " ". */
function loadDataDir(env: Record<string, string | undefined>, problems: string[]): string {
  const dataDir = env.DATA_DIR ?? './data';
  if (dataDir.trim() !== dataDir) problems.push(`DATA_DIR must be a folder's path without surrounding spaces, got "${dataDir}"`);
  return dataDir;
}

/** What `npm run dead-letters` needs: the Kafka cluster (local mode has none, and no dead-letter topic). */
export function loadDeadLettersConfig(given: Record<string, string | undefined>): { kafkaBrokers: string[] } {
  const env = emptyAsUnset(given);
  const problems: string[] = [];
  const kafkaBrokers = loadKafkaBrokers(env, problems);
  if (problems.length === 0 && kafkaBrokers.length === 0)
    problems.push(
      env.KAFKA_BROKERS?.trim() === KAFKA_NONE
        ? `KAFKA_BROKERS=${KAFKA_NONE} names no broker, and dead letters live in Kafka: give the cluster's host:port[,host:port]`
        : 'KAFKA_BROKERS is required: dead letters live in Kafka (local mode has no broker and none to replay)',
    );
  if (problems.length > 0) throw new ConfigError(problems);
  return { kafkaBrokers };
}
