/** How the process is watched: log format and who may read /metrics. */
export interface ObservabilitySettings {
  /** `json`: one JSON object per line (production default); `pretty`: readable lines (local default). */
  logFormat: 'json' | 'pretty';
  /** Bearer token for GET /metrics; unset: open in local mode, shut (403) in production. */
  metricsToken?: string;
  /** How long a shutdown waits for in-flight requests and deliveries before it exits anyway. */
  shutdownDrainMs: number;
}

/** LOG_FORMAT, METRICS_TOKEN and SHUTDOWN_DRAIN_MS, validated with the rest of the configuration (shared by both apps). */
export function loadObservabilitySettings(env: Record<string, string | undefined>, local: boolean, problems: string[]): ObservabilitySettings {
  const logFormat = (env.LOG_FORMAT || (local ? 'pretty' : 'json')) as ObservabilitySettings['logFormat'];
  if (logFormat !== 'json' && logFormat !== 'pretty') problems.push(`LOG_FORMAT must be json or pretty, got "${env.LOG_FORMAT}"`);
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && (metricsToken.length < 24 || !/^[\x21-\x7e]+$/.test(metricsToken)))
    problems.push('METRICS_TOKEN must be at least 24 visible ASCII characters (e.g. `openssl rand -hex 24`)');
  const drain = env.SHUTDOWN_DRAIN_MS ?? '10000';
  const shutdownDrainMs = /^\d{1,7}$/.test(drain) ? Number(drain) : NaN;
  if (!(shutdownDrainMs >= 100 && shutdownDrainMs <= 600_000)) problems.push(`SHUTDOWN_DRAIN_MS must be a whole number of milliseconds from 100 to 600000, got "${drain}"`);
  return { logFormat, metricsToken, shutdownDrainMs };
}
