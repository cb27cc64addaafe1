/** KAFKA_BROKERS's explicit "no broker": production then runs without settlement, because the operator said so. */
export const KAFKA_NONE = 'none';

/** KAFKA_BROKERS: comma-separated host:port; empty or `none`: no Kafka. */
export function loadKafkaBrokers(env: Record<string, string | undefined>, problems: string[]): string[] {
  if (env.KAFKA_BROKERS?.trim() === KAFKA_NONE) return [];
  const brokers = (env.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
  for (const b of brokers) if (!/^[A-Za-z0-9.-]+:\d+$/.test(b)) problems.push(`KAFKA_BROKERS: "${b}" is not host:port`);
  return brokers;
}

/**
 * LOCATION_HOST goes into every BR Code and is stored with each location, so a wrong one outlives
 * its correction: production must name it; local mode derives it from PORT (when PORT is valid,
 * so a bad PORT is reported once, as itself).
 */
export function loadLocationHost(env: Record<string, string | undefined>, local: boolean, port: number, problems: string[]): string {
  const set = env.LOCATION_HOST;
  if (!local && !set?.trim()) {
    problems.push('LOCATION_HOST is required in production mode: the host[:port] payers\' banks reach payload locations at (it is written into every BR Code), e.g. pix.example.com');
    return '';
  }
  if (set === undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) return '';
  const locationHost = set ?? `localhost:${port}`;
  if (!/^[a-z0-9.-]+(:\d+)?$/i.test(locationHost) || locationHost.length > 25)
    problems.push(`LOCATION_HOST must be a host[:port] of at most 25 characters (the location must fit 77), got "${locationHost}"`);
  return locationHost;
}
