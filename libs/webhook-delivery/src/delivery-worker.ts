import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { FailureStreak } from '@pix/observability';
import { claimDue, type ClaimedNotification } from './claim';
import { resolveDeliveryConfig, type DeliveryConfig, type ResolvedDeliveryConfig } from './config';
import { HttpSender } from './http-sender';
import { Lanes } from './lanes';
import { AttemptRecorder } from './attempt-recorder';
import { releaseUnsent } from './record-result';
import { deliverOne, type OneDeliveryDeps } from './one-delivery';
import { enqueueAndClaim } from './enqueue';
import { LeaseOwner } from './lease-owner';
import { WorkerUpkeep } from './worker-upkeep';
import { autovacuumWarning, ensureOutboxSchema } from './schema';
import { decodeSigningSecret } from './signature';
import type { Clock, DeliveryLogger, IntakeItem, WebhookRegistrations } from './types';
import { WebhookLookups } from './webhook-lookups';

/**
 * Drains the outbox: claims due deliveries (one notification, or a batch for one key) under a
 * lease, POSTs `{webhookUrl}/pix`, records each attempt with its status transition. Any number of
 * workers (in any number of processes) may share one database; each notification is sent by one
 * of them at a time. Per key, concurrency adapts to the receiver (`Lanes`).
 */
export class DeliveryWorker {
  private readonly config: ResolvedDeliveryConfig;
  private readonly sender: HttpSender;
  private readonly lanes: Lanes;
  /** What each POST needs from this worker (one-delivery.ts). */
  private readonly one: OneDeliveryDeps;
  private readonly inFlight = new Set<Promise<void>>();
  /** POSTs open now (at most `concurrency`); `inFlight` also holds deliveries whose result is being written. */
  private posting = 0;
  /**
   * POSTs open longer than `slowResponseMs` that gave their slot back (at most 4 × concurrency).
   * Receivers that never answer, on many keys at once, held every slot until their time-out,
   * and every other key waited that long (ADR 15: a slow receiver delays only its own key).
   */
  private slow = 0;
  private readonly lookups: WebhookLookups;
  /** Leases this worker holds per key (waiting, posting or being recorded). */
  private readonly held = new Map<string, number>();
  /** Claimed (leased) deliveries waiting for a free POST slot. */
  private readonly ready: { claim: ClaimedNotification; urlFor: (chave: string) => Promise<string | undefined> }[] = [];
  /** Slots promised to claims under way (the loop's and the intake's), so together they take no more than is free. */
  private reserved = 0;
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private wakeRequested = false;
  /** This worker's number on its leases, and its mark of life (lease-owner.ts). */
  private readonly owner: LeaseOwner;
  private readonly upkeep: WorkerUpkeep;
  /** Claims fail once per poll while the database is away: logged as a streak, not a line each. */
  private readonly claimFailures = new FailureStreak('webhook delivery: claim');

  constructor(
    private readonly pool: Pool,
    registrations: WebhookRegistrations,
    config: Partial<DeliveryConfig>,
    private readonly clock: Clock,
    private readonly logger: DeliveryLogger,
  ) {
    this.config = resolveDeliveryConfig(config);
    this.lanes = new Lanes({ maxInFlight: this.config.maxInFlightPerKey, maxBatch: this.config.maxBatch, slowMs: this.config.slowResponseMs });
    this.lookups = new WebhookLookups(registrations);
    const recorder = new AttemptRecorder(pool, {
      lease: () => {
        const now = this.clock.now();
        return { now, leaseToken: randomUUID(), leaseUntil: this.leaseEnd(now), owner: this.owner.current() };
      },
      handedOver: (next) => this.dispatch(next),
      now: () => this.clock.now(),
      writeFailed: (count, error, retryInMs) =>
        this.logger.error(`webhook delivery: results of ${count} deliveries not written (${error.message}); written again in ${retryInMs} ms and after, while their leases last`),
    });
    this.owner = new LeaseOwner(pool, logger);
    this.upkeep = new WorkerUpkeep(pool, this.owner, clock, logger);
    this.sender = new HttpSender(this.config.timeoutMs, this.config.tls, this.config.allowPrivateTargets ?? false);
    this.one = {
      pool,
      recorder,
      clock,
      logger,
      config: this.config,
      sender: this.sender,
      lanes: this.lanes,
      removedBefore: (chave) => this.lookups.removedBefore(chave),
      swept: new Map(),
      secret: this.config.signingSecret ? decodeSigningSecret(this.config.signingSecret) : undefined,
      mayHandOver: (claim) => this.running && this.lanes.batchOf(claim.chave) === 1 && (this.held.get(claim.chave) ?? 0) <= this.lanes.limitOf(claim.chave),
    };
  }

  /** Ensures the tables exist, then starts polling; resolves once the loop is running. */
  async start(): Promise<void> {
    if (this.running) return;
    await ensureOutboxSchema(this.pool);
    const warning = await autovacuumWarning(this.pool);
    if (warning) (this.logger.warn ?? this.logger.log).call(this.logger, warning);
    await this.owner.start();
    this.running = true;
    this.loop = this.run();
  }

  /**
   * The key's webhook URL through this worker's shared reads (WebhookLookups): the intake asks
   * here too, so a key's cash-ins and deliveries cost one registration read per LOOKUP_REUSE_MS.
   */
  webhookUrlFor(chave: string): Promise<string | undefined> {
    return this.lookups.urlFor(chave);
  }

  /**
   * The intake's way in: stores the notifications (idempotent by endToEndId) and, in the same
   * round trip, claims what this worker has room for, which starts at once. Storing, waking the
   * loop and waiting for its claim took a second round trip, and a claim under way when the rows
   * landed (it cannot see them) made them wait for the one after.
   */
  async enqueueMany(inputs: IntakeItem[]): Promise<{ created: number }> {
    const now = this.clock.now();
    const limit = this.running ? this.free() : 0;
    const { created, claimed } = await this.reserving(limit, () => enqueueAndClaim(this.pool, inputs, now, this.claimRequest(now, limit)));
    if (!this.running) await releaseUnsent(this.pool, claimed, this.clock.now()); // stopped meanwhile: hand them back now
    else if (limit > 0) this.dispatch(claimed);
    // No room to claim (the loop's claims had it all, and may have run before these rows were
    // committed): wake the loop for another, as if the rows came from elsewhere.
    else if (created > 0) this.signal();
    return { created };
  }

  /**
   * Stops claiming and handing over, waits for requests in flight to finish and be recorded, and
   * hands back claimed deliveries that were never started.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.signal();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    const unsent = this.ready.splice(0).map((r) => r.claim);
    await releaseUnsent(this.pool, unsent, this.clock.now()).catch((error) =>
      this.logger.error(`webhook delivery: ${unsent.length} claimed deliveries not handed back (${(error as Error).message}); retried when their leases end`),
    );
    // Last: leases not handed back above end as this session does, instead of by time.
    await this.owner.stop();
    this.sender.close();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.wakeRequested = false;
      await this.upkeep.run();
      // Claims run ahead of the free POST slots by up to `concurrency` deliveries: a POST that
      // ends starts the next claimed one at once instead of waiting for a claim round trip.
      const free = this.free();
      let claimed = 0;
      if (free > 0) {
        try {
          claimed = this.dispatch(await this.reserving(free, () => claimDue(this.pool, this.claimRequest(this.clock.now(), free))));
          const resumed = this.claimFailures.succeeded();
          if (resumed) this.logger.log(resumed);
        } catch (error) {
          const line = this.claimFailures.failed((error as Error).message);
          if (line) this.logger.error(line);
        }
      }
      // A full batch suggests more is due: go again at once; otherwise wait for a poll or a slot.
      if (!this.running || (free > 0 && claimed === free)) continue;
      await this.sleep(this.config.pollMs);
    }
  }

  /** Claims run ahead of the free POST slots by up to `concurrency` deliveries (less those promised to claims under way). */
  private free(): number {
    return Math.max(0, 2 * this.config.concurrency - (this.inFlight.size - this.slow) - this.ready.length - this.reserved);
  }

  /** Runs a claim of up to `limit` deliveries with those slots promised to it meanwhile. */
  private async reserving<T>(limit: number, claim: () => Promise<T>): Promise<T> {
    this.reserved += limit;
    try {
      return await claim();
    } finally {
      this.reserved -= limit;
    }
  }

  private claimRequest(now: Date, limit: number) {
    return { now, limit, maxInFlightPerKey: this.lanes.initial, maxBatch: this.config.maxBatch, lanes: this.lanes.limits(), leaseUntil: this.leaseEnd(now), owner: this.owner.current() };
  }

  /** now + timeoutMs + margin: nobody else sends it while our request may still be in flight. */
  private leaseEnd(now: Date): Date {
    return new Date(now.getTime() + this.config.timeoutMs + this.config.leaseMarginMs);
  }

  /** Queues the claimed deliveries (in claim order: oldest due key first) and starts what the free slots take. */
  private dispatch(claims: ClaimedNotification[]): number {
    // Each key's webhook is looked up once per claim (not once per POST), when the claim's first
    // delivery to that key starts, or taken from a read at most LOOKUP_REUSE_MS old (see
    // WebhookLookups): a webhook removed meanwhile gets nothing more.
    const urls = new Map<string, Promise<string | undefined>>();
    const urlFor = (chave: string) => {
      let url = urls.get(chave);
      if (!url) urls.set(chave, (url = this.lookups.urlFor(chave)));
      return url;
    };
    for (const claim of claims) {
      this.ready.push({ claim, urlFor });
      this.held.set(claim.chave, (this.held.get(claim.chave) ?? 0) + 1);
    }
    this.startReady();
    return claims.length;
  }

  /**
   * Starts queued deliveries while fewer than `concurrency` POSTs are open. A slot is free again
   * when its POST has ended: the result is written meanwhile (grouped with others, see
   * AttemptRecorder) under the lease, which still counts against the key's lane in the database.
   */
  private startReady(): void {
    while (this.running && this.posting < this.config.concurrency && this.ready.length > 0) {
      const { claim, urlFor } = this.ready.shift()!;
      this.posting += 1;
      let posted = false;
      const slotFree = () => {
        if (posted) return;
        posted = true;
        this.posting -= 1;
        this.startReady();
      };
      // Still open past the slow threshold: its slot goes to another key, the POST goes on (bounded).
      let slow = false;
      const slowTimer = setTimeout(() => {
        if (posted || this.slow >= 4 * this.config.concurrency) return;
        slow = true;
        this.slow += 1;
        slotFree();
      }, this.config.slowResponseMs);
      const work: Promise<void> = deliverOne(this.one, claim, urlFor(claim.chave), slotFree)
        .catch((error) => this.logger.error(`webhook ${claim.id}: ${(error as Error).message}; retried when its lease ends`))
        .finally(() => {
          clearTimeout(slowTimer);
          if (slow) this.slow -= 1;
          this.inFlight.delete(work);
          const held = this.held.get(claim.chave)! - 1;
          if (held > 0) this.held.set(claim.chave, held);
          else this.held.delete(claim.chave);
          slotFree();
          this.signal();
        });
      this.inFlight.add(work);
    }
  }

  /** Wakes the loop; remembered if it comes while the loop is busy claiming. */
  private signal(): void {
    this.wakeRequested = true;
    this.wake?.();
  }

  private sleep(ms: number): Promise<void> {
    if (this.wakeRequested) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
