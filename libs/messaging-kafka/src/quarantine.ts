import type { KafkaMessage } from 'kafkajs';
import type { CashInTrace } from '@pix/contracts';
import { GaveUp, retrying, StoppedWhileRetrying, type RetryDeps } from './retrying';
import type { DeadLetter } from './validated-batch';

/** Failures of a whole slice before its messages are tried one at a time, and of one message alone before the dependencies are asked. */
export const ISOLATE_AFTER = 5;

export interface QuarantineSteps<T> {
  /** The handler on some of the slice's messages (with their traces). */
  run(batch: T[], traces: (CashInTrace | undefined)[]): Promise<void>;
  /** Whether what the handler depends on (the database, the event store) answers now. */
  healthy(): Promise<boolean>;
  /** Stores the message in the dead-letter topic (retried until it is). */
  deadLetter(message: KafkaMessage, reason: string): Promise<DeadLetter>;
}

/**
 * A slice whose handling keeps failing while the handler's dependencies answer holds a message
 * the handler can never take: a poison pill, which would otherwise be retried forever and hold
 * back its partition and (kafkajs fetches again only when every batch in hand is done) every
 * other one. After ISOLATE_AFTER failed attempts the messages go one at a time, in order (the
 * handlers are idempotent: those already done are done again as nothing); a message that fails
 * ISOLATE_AFTER times alone, and once more between two probes that find its dependencies up
 * (`healthy()`), is dead-lettered; while they are down it is retried (an outage, not the
 * message). Answers the messages dead-lettered.
 */
export async function handleWithQuarantine<T>(valid: T[], traces: (CashInTrace | undefined)[], sources: KafkaMessage[], what: string, deps: RetryDeps, steps: QuarantineSteps<T>): Promise<DeadLetter[]> {
  try {
    await retrying(() => steps.run(valid, traces), `${what}: handling ${valid.length} message(s)`, deps, ISOLATE_AFTER);
    return [];
  } catch (error) {
    if (!(error instanceof GaveUp)) throw error;
  }
  deps.logger.error(`${what}: failed ${ISOLATE_AFTER} times; handling its ${valid.length} message(s) one at a time`);
  const quarantined: DeadLetter[] = [];
  for (let i = 0; i < valid.length; i++) {
    const alone = `${what}: offset ${sources[i].offset} alone`;
    for (;;) {
      try {
        await retrying(() => steps.run([valid[i]], [traces[i]]), alone, deps, ISOLATE_AFTER);
        break;
      } catch (error) {
        if (!(error instanceof GaveUp)) throw error;
        // Poison only if it fails between two probes that find the dependencies up: a failure
        // from just before an outage ended is not the message's. While they are down, wait for
        // them (probed each second, told once a minute) rather than five fresh attempts (and a stack) every 3 s.
        if (!(await healthy(steps))) {
          await waitForDependencies(steps, alone, deps);
          continue;
        }
        if (await steps.run([valid[i]], [traces[i]]).then(() => true, () => false)) break;
        if (!(await healthy(steps))) {
          await waitForDependencies(steps, alone, deps);
          continue;
        }
        quarantined.push(await steps.deadLetter(sources[i], `the handler failed ${ISOLATE_AFTER + 1} times on this message alone while its dependencies answered: ${error.message}`));
        break;
      }
    }
  }
  return quarantined;
}

const healthy = (steps: QuarantineSteps<unknown>) => steps.healthy().catch(() => false);

/**
 * Until the handler's dependencies answer: probed each second (the message goes on within a
 * second of an outage's end), said once, then once a minute, then when it is over, with
 * heartbeats meanwhile.
 */
async function waitForDependencies(steps: QuarantineSteps<unknown>, what: string, deps: RetryDeps): Promise<void> {
  const since = Date.now();
  let said = since;
  deps.logger.error(`${what}: the database or the event store does not answer; waiting for them (probed each second, said again once a minute)`);
  while (!(await healthy(steps))) {
    if (deps.stopped()) throw new StoppedWhileRetrying(`${what}: stopped while waiting for its dependencies, left for redelivery`);
    if (Date.now() - said >= 60_000) {
      said = Date.now();
      deps.logger.error(`${what}: still waiting for the database or the event store after ${Math.round((said - since) / 1000)} s`);
    }
    for (const until = Date.now() + 1000; Date.now() < until && !deps.stopped(); ) {
      await new Promise((r) => setTimeout(r, 100));
      await deps.heartbeat().catch(() => undefined);
    }
  }
  deps.logger.log?.(`${what}: the database and the event store answer again after ${Math.round((Date.now() - since) / 1000)} s; handling it again`);
}
