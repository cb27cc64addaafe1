import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { withTimeout } from './with-timeout';

/** Seconds: from a fast local query to a webhook receiver near its time-out. */
const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One sample of a gauge that is read when Prometheus scrapes. Label values must be bounded. */
export interface GaugeSample {
  labels?: Record<string, string>;
  value: number;
}

/**
 * One process's Prometheus registry and the series both apps share (prom-client). Libraries do
 * not import it: the apps hand them plain callbacks (an append hook, a delivery observer) that
 * record here. Names carry their unit (`_seconds`, `_total`); no label ever holds a txid, key,
 * URL or receiver id.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly appends: Counter<'store' | 'outcome'>;
  readonly appendDuration: Histogram<'store' | 'outcome'>;
  readonly deliveryAttempts: Counter<'outcome'>;
  readonly deliveryDuration: Histogram<'outcome'>;
  readonly tokensIssued: Counter<string>;
  readonly tokensRefused: Counter<'error'>;
  readonly rateLimitRefusals: Counter<'limit'>;
  readonly cashInsUnowned: Counter<string>;
  readonly cashInDeadLetters: Counter<'group' | 'reason'>;
  readonly cashInsUnsettled: Counter<'reason'>;
  private readonly collectErrors: Counter<'collector'>;

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    const r = [this.registry];
    this.httpRequests = new Counter({ name: 'pix_http_requests_total', help: 'HTTP requests answered, by route template, method and status.', labelNames: ['method', 'route', 'status'], registers: r });
    this.httpDuration = new Histogram({ name: 'pix_http_request_duration_seconds', help: 'Time to answer an HTTP request.', labelNames: ['method', 'route', 'status'], buckets: LATENCY_BUCKETS, registers: r });
    this.appends = new Counter({ name: 'pix_event_store_appends_total', help: 'Appends to the event store by outcome (ok, conflict: wrong expected revision, duplicate, error).', labelNames: ['store', 'outcome'], registers: r });
    this.appendDuration = new Histogram({ name: 'pix_event_store_append_duration_seconds', help: 'Time one append to the event store took.', labelNames: ['store', 'outcome'], buckets: LATENCY_BUCKETS, registers: r });
    this.deliveryAttempts = new Counter({ name: 'pix_webhook_delivery_attempts_total', help: 'Webhook delivery attempts by outcome (delivered, retry, dead, lease_lost).', labelNames: ['outcome'], registers: r });
    this.deliveryDuration = new Histogram({ name: 'pix_webhook_delivery_duration_seconds', help: 'Time a webhook receiver took to answer one attempt.', labelNames: ['outcome'], buckets: LATENCY_BUCKETS, registers: r });
    this.tokensIssued = new Counter({ name: 'pix_oauth_tokens_issued_total', help: 'Access tokens issued by POST /oauth/token.', registers: r });
    this.tokensRefused = new Counter({ name: 'pix_oauth_tokens_refused_total', help: 'Token requests refused, by OAuth2 error code.', labelNames: ['error'], registers: r });
    this.rateLimitRefusals = new Counter({ name: 'pix_rate_limit_refusals_total', help: 'Requests refused with 429, by limit (client or address).', labelNames: ['limit'], registers: r });
    this.cashInsUnowned = new Counter({ name: 'pix_cash_ins_unowned_total', help: 'Cash-ins recorded to a Pix key no receiver here owns (settling nothing): normal for another deployment sharing the broker.', registers: r });
    this.cashInsUnsettled = new Counter({ name: 'pix_cash_ins_unsettled_total', help: 'New Pix naming a charge (txid) of their receiver that concluded nothing, by reason: no_charge (none here), charge_concluded (paid again), charge_removed (paid after removal).', labelNames: ['reason'], registers: r });
    this.cashInDeadLetters = new Counter({ name: 'pix_cash_in_dead_letters_total', help: 'Cash-ins a consumer group sent to the dead-letter topic, by reason (invalid: the contract refused it; quarantined: the handler kept failing on it while its dependencies answered). Each is money received that this group neither settles nor notifies until replayed.', labelNames: ['group', 'reason'], registers: r });
    this.collectErrors = new Counter({ name: 'pix_metrics_collect_errors_total', help: 'Scrape-time reads that failed (the series is left empty for that scrape).', labelNames: ['collector'], registers: r });
  }

  /**
   * A gauge whose samples are read at scrape time (a database count, a lag). A read that fails
   * or takes longer than `timeoutMs` leaves the series empty and counts an error: one slow
   * dependency never fails the whole scrape, and a gauge never shows 0 for what it could not read.
   */
  scrapedGauge(name: string, help: string, labelNames: string[], read: () => Promise<GaugeSample[]> | GaugeSample[], timeoutMs = 2000): void {
    new ScrapedGauge(name, help, labelNames, read, timeoutMs, this.collectErrors, this.registry);
  }

  /**
   * The transport's dead-letter observer (KafkaBatchServer.onDeadLetters) for one consumer group.
   * Its series start at 0, so an alert on increase() also sees the first dead letter.
   */
  deadLetterObserver(group: string): (reason: 'invalid' | 'quarantined', count: number) => void {
    for (const reason of ['invalid', 'quarantined']) this.cashInDeadLetters.inc({ group, reason }, 0);
    return (reason, count) => this.cashInDeadLetters.inc({ group, reason }, count);
  }

  /** The append hook the event store's callers are wrapped with. */
  observeAppend(store: string, outcome: string, durationMs: number): void {
    this.appends.inc({ store, outcome });
    this.appendDuration.observe({ store, outcome }, durationMs / 1000);
  }

  /** The delivery worker's observer (DeliveryConfig.onAttempt). */
  observeDelivery = (attempt: { outcome: string; latencyMs: number }): void => {
    this.deliveryAttempts.inc({ outcome: attempt.outcome });
    this.deliveryDuration.observe({ outcome: attempt.outcome }, attempt.latencyMs / 1000);
  };

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}

/**
 * prom-client's gauge without labels always holds one sample (its `reset` writes 0): a failed
 * read showed 0 pending notifications while the database was down. This one serves exactly the
 * samples of its last read, none when that read failed or returned none.
 */
class ScrapedGauge extends Gauge<string> {
  private empty = true;

  constructor(name: string, help: string, labelNames: string[], read: () => Promise<GaugeSample[]> | GaugeSample[], timeoutMs: number, errors: Counter<'collector'>, registry: Registry) {
    super({
      name,
      help,
      labelNames,
      registers: [registry],
      collect: async () => {
        this.reset();
        this.empty = true;
        try {
          const samples = await withTimeout(Promise.resolve(read()), timeoutMs);
          for (const s of samples) this.set(s.labels ?? {}, s.value);
          this.empty = samples.length === 0;
        } catch {
          errors.inc({ collector: name });
        }
      },
    });
  }

  override async get() {
    const metric = await super.get();
    return this.empty ? { ...metric, values: [] } : metric;
  }
}
