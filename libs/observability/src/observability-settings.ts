import { readIntegerSetting } from './integer-setting';

/** How the process is watched: log format and level, and who may read /metrics. */
export interface ObservabilitySettings {
  /** `json`: one JSON object per line (production default); `pretty`: readable lines (local default). */
  logFormat: 'json' | 'pretty';
  /** LOG_LEVEL (`warn` and `error` also silence access lines). */
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Bearer token for GET /metrics; unset: open in local mode, shut (403) in production. */
  metricsToken?: string;
  /** How long a shutdown waits for in-flight requests and deliveries before it exits anyway. */
  shutdownDrainMs: number;
  /** How long a shutdown keeps serving, readiness 503, before it stops accepting (0: stop at once). */
  shutdownDelayMs: number;
}

/** LOG_FORMAT, LOG_LEVEL, METRICS_TOKEN, SHUTDOWN_DRAIN_MS and SHUTDOWN_DELAY, validated with the rest of the configuration (shared by both apps). */
export function loadObservabilitySettings(env: Record<string, string | undefined>, local: boolean, problems: string[]): ObservabilitySettings {
  const logFormat = (env.LOG_FORMAT || (local ? 'pretty' : 'json')) as ObservabilitySettings['logFormat'];
  if (logFormat !== 'json' && logFormat !== 'pretty') problems.push(`LOG_FORMAT must be json or pretty, got "${env.LOG_FORMAT}"`);
  const logLevel = (env.LOG_LEVEL ?? 'info') as ObservabilitySettings['logLevel'];
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) problems.push(`LOG_LEVEL must be debug, info, warn or error, got "${env.LOG_LEVEL}"`);
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && (metricsToken.length < 24 || !/^[\x21-\x7e]+$/.test(metricsToken)))
    problems.push('METRICS_TOKEN must be at least 24 visible ASCII characters (e.g. `openssl rand -hex 24`)');
  const shutdownDrainMs = readIntegerSetting(env, 'SHUTDOWN_DRAIN_MS', { fallback: 10_000, min: 100, max: 600_000 }, problems);
  return { logFormat, logLevel, metricsToken, shutdownDrainMs, shutdownDelayMs: loadShutdownDelay(env, local, problems) };
}

const DELAY_UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/**
 * SHUTDOWN_DELAY, a duration (`500ms`, `5s`, `1m`; a bare number is ms) from 0 to 10 minutes.
 * Production waits 5 s by default: long enough for a load balancer polling readiness every few
 * seconds (or Kubernetes removing the pod's endpoint) to stop routing here before the port closes.
 * Local mode waits 0, so Ctrl-C stays instant.
 */
function loadShutdownDelay(env: Record<string, string | undefined>, local: boolean, problems: string[]): number {
  const raw = env.SHUTDOWN_DELAY;
  if (raw === undefined || raw === '') return local ? 0 : 5000;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/.exec(raw);
  const ms = match ? Math.round(Number(match[1]) * DELAY_UNIT_MS[match[2] ?? 'ms']) : NaN;
  if (!(ms >= 0 && ms <= 600_000)) problems.push(`SHUTDOWN_DELAY must be a duration from 0 to 10m (e.g. "5s", "500ms"), got "${raw}"`);
  return ms;
}
