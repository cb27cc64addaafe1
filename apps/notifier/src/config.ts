import { DEFAULT_NOTIFIER_GROUP_ID, loadConsumerGroupId, loadDeliverySettings } from '@pix/messaging';
import type { DeliveryConfig } from '@pix/webhook-delivery';
import { eventStoreConnectionStringProblem } from '@pix/event-store';
import { emptyAsUnset, isListenHost, loadObservabilitySettings, readIntegerSetting, type ObservabilitySettings } from '@pix/observability';

export interface NotifierConfig extends ObservabilitySettings {
  port: number;
  host: string;
  kafkaBrokers: string[];
  groupId: string;
  databaseUrl: string;
  /** Most milliseconds a statement may wait for PostgreSQL's answer (start-up migrations excepted), as the API's. */
  databaseQueryTimeoutMs: number;
  eventStoreConnectionString?: string;
  delivery: DeliveryConfig;
  /** Bearer token for the operator endpoints (/notifier/...); unset keeps them shut. */
  operatorToken?: string;
  /** Connections one remote address may hold open at once on the operator port (0: no limit), as the API's. */
  connectionsPerAddress: number;
}

/** Validated once at start-up; each bad value gets its own message. */
export function loadNotifierConfig(given: Record<string, string | undefined>): NotifierConfig {
  const env = emptyAsUnset(given);
  const problems: string[] = [];
  const port = readIntegerSetting(env, 'NOTIFIER_PORT', { fallback: 8081, min: 0, max: 65535 }, problems);
  const kafkaBrokers = (env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
  if (kafkaBrokers.length === 0 || env.KAFKA_BROKERS?.trim() === 'none') problems.push('KAFKA_BROKERS is required (host:port[,host:port]): the notifier consumes cash-ins from Kafka');
  else for (const b of kafkaBrokers) if (!/^[A-Za-z0-9.-]+:\d+$/.test(b)) problems.push(`KAFKA_BROKERS: "${b}" is not host:port`);
  const databaseUrl = env.DATABASE_URL ?? '';
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL is required: PostgreSQL keeps the notification outbox (and the events, without EventStoreDB)');
  const databaseQueryTimeoutMs = readIntegerSetting(env, 'DATABASE_QUERY_TIMEOUT_MS', { fallback: 30_000, min: 100, max: 3_600_000 }, problems);
  // What was given: an empty group id is refused, not the default (loadConsumerGroupId).
  const groupId = loadConsumerGroupId(given, 'NOTIFIER_GROUP_ID', DEFAULT_NOTIFIER_GROUP_ID, problems);
  const delivery = loadDeliverySettings(env, problems);
  const connectionsPerAddress = readIntegerSetting(env, 'CONNECTIONS_PER_ADDRESS', { fallback: 512, min: 0, max: 1_000_000 }, problems);
  const operatorToken = env.NOTIFIER_OPERATOR_TOKEN || undefined;
  if (operatorToken && operatorToken.length < 24) problems.push('NOTIFIER_OPERATOR_TOKEN must be at least 24 characters (e.g. `openssl rand -hex 24`)');
  const host = env.HOST ?? '0.0.0.0';
  if (!isListenHost(host)) problems.push(`HOST must be a host name or IP address to listen on (e.g. 0.0.0.0 or 127.0.0.1), got "${host}"`);
  const observability = loadObservabilitySettings(env, false, problems);
  const esdbProblem = env.EVENTSTORE_CONNECTION_STRING && eventStoreConnectionStringProblem(env.EVENTSTORE_CONNECTION_STRING);
  if (esdbProblem) problems.push(esdbProblem);
  if (problems.length > 0) throw new Error(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return {
    port,
    host,
    kafkaBrokers,
    groupId,
    databaseUrl,
    databaseQueryTimeoutMs,
    eventStoreConnectionString: env.EVENTSTORE_CONNECTION_STRING || undefined,
    delivery,
    operatorToken,
    connectionsPerAddress,
    ...observability,
  };
}
