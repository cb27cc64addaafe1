import { Metrics } from './metrics';
import { installOutboxMetrics } from './service-metrics';

const samples = (text: string, name: string) => text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

describe('gauges read at scrape time (Metrics.scrapedGauge)', () => {
  it('serves no sample, not 0, for a gauge without labels whose read failed (the database down showed 0 pending)', async () => {
    const metrics = new Metrics('test');
    let down = true;
    installOutboxMetrics(metrics, async () => {
      if (down) throw new Error('database unreachable');
      return { pending: 3, dead: 1, inFlight: 2, oldestPendingAgeMs: 1500 };
    });
    const during = await metrics.text();
    for (const name of ['pix_webhook_notifications_pending', 'pix_webhook_notifications_in_flight', 'pix_webhook_notifications_dead', 'pix_webhook_oldest_pending_age_seconds']) expect(samples(during, name)).toEqual([]);
    // Counted (the counter comes first in the text: this scrape's failures show on the next).
    expect(await metrics.text()).toMatch(/pix_metrics_collect_errors_total\{collector="pix_webhook_notifications_pending",service="test"\} [1-9]/);
    down = false;
    await new Promise((r) => setTimeout(r, 1100)); // the outbox read is shared for a second
    const after = await metrics.text();
    expect(samples(after, 'pix_webhook_notifications_pending')).toEqual(['pix_webhook_notifications_pending{service="test"} 3']);
    expect(samples(after, 'pix_webhook_oldest_pending_age_seconds')).toEqual(['pix_webhook_oldest_pending_age_seconds{service="test"} 1.5']);
  });

  it('serves no sample when the read has none, and drops the labels a read no longer returns', async () => {
    const metrics = new Metrics('test');
    let read = [{ labels: { group: 'a' }, value: 4 }];
    metrics.scrapedGauge('t_labelled', 'h', ['group'], () => read);
    metrics.scrapedGauge('t_plain', 'h', [], () => []);
    expect(samples(await metrics.text(), 't_labelled')).toEqual(['t_labelled{group="a",service="test"} 4']);
    read = [];
    const text = await metrics.text();
    expect([samples(text, 't_labelled'), samples(text, 't_plain')]).toEqual([[], []]);
  });
});

describe('dead-lettered cash-ins (Metrics.deadLetterObserver)', () => {
  it('serves a counter per group and reason from 0, and counts what the transport tells it', async () => {
    const metrics = new Metrics('test');
    const observe = metrics.deadLetterObserver('pix-notifier');
    expect(samples(await metrics.text(), 'pix_cash_in_dead_letters_total')).toEqual([
      'pix_cash_in_dead_letters_total{group="pix-notifier",reason="invalid",service="test"} 0',
      'pix_cash_in_dead_letters_total{group="pix-notifier",reason="quarantined",service="test"} 0',
    ]);
    observe('invalid', 3);
    expect(samples(await metrics.text(), 'pix_cash_in_dead_letters_total')[0]).toBe('pix_cash_in_dead_letters_total{group="pix-notifier",reason="invalid",service="test"} 3');
  });
});

describe('delivery outcomes where webhooks are delivered (installOutboxMetrics)', () => {
  it('serves every outcome from 0, so an alert on increase() sees the first notification that dies', async () => {
    const metrics = new Metrics('test');
    installOutboxMetrics(metrics, async () => ({ pending: 0, dead: 0, inFlight: 0, oldestPendingAgeMs: null }));
    expect(samples(await metrics.text(), 'pix_webhook_delivery_attempts_total')).toEqual(
      ['delivered', 'retry', 'dead', 'lease_lost'].map((outcome) => `pix_webhook_delivery_attempts_total{outcome="${outcome}",service="test"} 0`),
    );
  });
});
