import type { Metrics } from './metrics';

export interface OutboxStatsSample {
  pending: number;
  dead: number;
  inFlight: number;
  oldestPendingAgeMs: number | null;
}

/** Outbox gauges from its stats query (pending, dead, in flight, age of the oldest pending). */
export function installOutboxMetrics(metrics: Metrics, stats: () => Promise<OutboxStatsSample | undefined> | undefined): void {
  let current: ReturnType<typeof stats> | undefined;
  const read = () => (current ??= Promise.resolve(stats()).finally(() => setTimeout(() => (current = undefined), 1000).unref()));
  const gauge = (name: string, help: string, pick: (s: NonNullable<Awaited<ReturnType<typeof stats>>>) => number) =>
    metrics.scrapedGauge(name, help, [], async () => {
      const s = await read();
      return s ? [{ value: pick(s) }] : [];
    });
  gauge('pix_webhook_notifications_pending', 'Notifications waiting to be delivered (including those in flight).', (s) => s.pending);
  gauge('pix_webhook_notifications_in_flight', 'Notifications whose delivery request is in flight now.', (s) => s.inFlight);
  gauge('pix_webhook_notifications_dead', 'Notifications whose retry schedule ran out (kept for a resend).', (s) => s.dead);
  // From 0: a series that appears only with its first sample hides that sample from increase(),
  // and the first notification to die after a restart raised no alert (an operator audit).
  for (const outcome of ['delivered', 'retry', 'dead', 'lease_lost']) metrics.deliveryAttempts.inc({ outcome }, 0);
  gauge('pix_webhook_oldest_pending_age_seconds', 'Age of the oldest undelivered notification (0 when none): a stalled sender shows here.', (s) => (s.oldestPendingAgeMs ?? 0) / 1000);
}

/** Consumer lag per partition, from a poller's last values (a scrape never waits on a broker). */
export function installConsumerLagMetrics(metrics: Metrics, lags: () => { group: string; topic: string; partition: number; lag: number }[]): void {
  metrics.scrapedGauge('pix_kafka_consumer_lag_messages', 'Messages a consumer group has yet to read, per partition (polled every 15 s).', ['group', 'topic', 'partition'], () =>
    lags().map((l) => ({ labels: { group: l.group, topic: l.topic, partition: String(l.partition) }, value: l.lag })),
  );
}

/**
 * pix_dependency_up{dependency}: 1 while the dependency answers the probe readiness uses, 0 while
 * not, asked at scrape (the probes cache and time out on their own). Outages showed nothing but
 * zeros before (an audit): this is the series to alert on.
 */
export function installDependencyMetrics(metrics: Metrics, probes: Record<string, () => Promise<boolean>>): void {
  metrics.scrapedGauge(
    'pix_dependency_up',
    'Whether a dependency answers the probe readiness uses: 1 up, 0 not (kafka: 0 too while a consumer group is stuck joining).',
    ['dependency'],
    () => Promise.all(Object.entries(probes).map(async ([dependency, up]) => ({ labels: { dependency }, value: (await up().catch(() => false)) ? 1 : 0 }))),
    3000,
  );
}
